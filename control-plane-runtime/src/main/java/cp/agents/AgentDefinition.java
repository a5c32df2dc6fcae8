package cp.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One agent definition file as written, after its schema check (issue 22 item 1's keys).
 *
 * <p>Unknown keys never reach this record: the schema refuses them first. Values are as written:
 * {@code ${NAME}} references are replaced later, when the MCP servers are resolved, so a secret
 * never sits in this record.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AgentDefinition(
    String agentClass,
    String description,
    String instructions,
    String instructionsFile,
    Model model,
    Integer maxTokens,
    List<Model> fallback,
    List<String> tools,
    Map<String, McpServer> mcpServers,
    Map<String, String> approval,
    Long approvalTimeoutSeconds,
    Map<String, Long> toolTimeoutSeconds,
    Budget budget,
    Paths permissions,
    JsonNode outputSchema) {

  public AgentDefinition {
    fallback = fallback == null ? List.of() : List.copyOf(fallback);
    tools = tools == null ? List.of() : List.copyOf(tools);
    mcpServers = mcpServers == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(mcpServers));
    approval = approval == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(approval));
    toolTimeoutSeconds = toolTimeoutSeconds == null ? Map.of()
        : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(toolTimeoutSeconds));
    budget = budget == null ? new Budget(null, null, null, null, null) : budget;
    permissions = permissions == null ? new Paths(null, null) : permissions;
    outputSchema = outputSchema == null ? null : outputSchema.deepCopy();
  }

  /**
   * A model: each part optional, defaulting to the worker's configuration.
   *
   * @param provider anthropic, openai or offline
   * @param apiKeyEnv the name of the variable holding the key, never the key
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Model(String provider, String name, String baseUrl, String apiKeyEnv) {}

  /** A stdio server ({@code command}, {@code args}, {@code env}, {@code cwd}) or an HTTP one ({@code url}, {@code headers}). */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record McpServer(String command, List<String> args, Map<String, String> env, String cwd, String url,
      Map<String, String> headers) {
    public McpServer {
      args = args == null ? List.of() : List.copyOf(args);
      env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
      headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    public boolean stdio() {
      return command != null;
    }
  }

  /** Limits; absent ones take {@link DefinitionDefaults}. The USD limits are enforced from issue 23 on. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Budget(Long sessionTokens, Long workOrderTokens, Integer turnLimit, Double workOrderUsd,
      Double sessionUsd) {}

  /** Path globs relative to the plane root the agent's tools may read and write. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Paths(List<String> read, List<String> write) {
    public Paths {
      read = read == null ? List.of() : List.copyOf(read);
      write = write == null ? List.of() : List.copyOf(write);
    }
  }
}
