package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One agent class a worker knows, as {@code AgentClasses} answers it.
 *
 * @param agentClass the class a session starts with ({@code ADMIN}, {@code WEATHER})
 * @param description what it is for
 * @param origin {@code built_in} (the catalog's files) or {@code defined} (CP_AGENTS_DIR or registered in code)
 * @param tools the names of its tools, as grants and TOOL_CALL entries name them
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentClassInfo(String agentClass, String description, String origin, List<String> tools) {
  public static final String BUILT_IN = "built_in";
  public static final String DEFINED = "defined";

  public AgentClassInfo {
    Objects.requireNonNull(agentClass, "agentClass");
    description = description == null ? "" : description;
    Objects.requireNonNull(origin, "origin");
    tools = tools == null ? List.of() : List.copyOf(tools);
  }
}
