package cp.agents;

import cp.tools.mcp.McpServerSpec;
import java.util.List;
import java.util.Objects;

/**
 * A definition that passed every check: what it says, its instructions text (read from
 * {@code instructions_file} if it named one) and its MCP servers with references resolved.
 *
 * @param file the definition's file name, as messages name it
 */
public record CheckedDefinition(String file, AgentDefinition definition, String instructions,
    List<McpServerSpec> servers) {
  public CheckedDefinition {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(instructions, "instructions");
    servers = List.copyOf(servers);
  }

  public String agentClass() {
    return definition.agentClass();
  }
}
