package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * One tool call of a work order, as an activity input.
 *
 * @param approval how a person decided the call, when the agent's policy asks for one (issue 15);
 *     null when it needs none. A call not granted is recorded as refused and never runs.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolCallRequest(
    String woId, String sessionId, String agentClass, ToolUse toolUse, List<String> allowedTools, int round,
    ApprovalResult approval) {
  public ToolCallRequest {
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
  }

  /** A call that needs no approval. */
  public ToolCallRequest(String woId, String sessionId, String agentClass, ToolUse toolUse, List<String> allowedTools,
      int round) {
    this(woId, sessionId, agentClass, toolUse, allowedTools, round, null);
  }
}
