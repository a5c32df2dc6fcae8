package cp.agents;

import cp.tools.mcp.McpServerSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A definition that passed every check: what it says, its instructions text (read from
 * {@code instructions_file} if it named one) and its MCP servers with references resolved.
 *
 * @param file the definition's file name, as messages name it
 * @param source what it was read from (its bytes are what the catalog lists and hashes); empty
 *     only while it is being checked
 */
public record CheckedDefinition(String file, AgentDefinition definition, String instructions,
    List<McpServerSpec> servers, Optional<DefinitionSource> source) {
  public CheckedDefinition {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(instructions, "instructions");
    servers = List.copyOf(servers);
    source = source == null ? Optional.empty() : source;
  }

  public CheckedDefinition(String file, AgentDefinition definition, String instructions, List<McpServerSpec> servers) {
    this(file, definition, instructions, servers, Optional.empty());
  }

  /** The same definition, read from {@code from}. */
  CheckedDefinition from(DefinitionSource from) {
    return new CheckedDefinition(file, definition, instructions, servers, Optional.of(from));
  }

  public String agentClass() {
    return definition.agentClass();
  }
}
