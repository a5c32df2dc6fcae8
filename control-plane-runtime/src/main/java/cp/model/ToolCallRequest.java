package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** One tool call of a work order, as an activity input. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolCallRequest(
    String woId, String sessionId, String agentClass, ToolUse toolUse, List<String> allowedTools, int round) {
  public ToolCallRequest {
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
  }
}
