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
 * @param callIndex the call's place among its round's tool calls, from 1: with the workflow, the
 *     work order and the round it makes the call's idempotency key (issue 22); null in requests
 *     recorded before it was sent
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolCallRequest(
    String woId, String sessionId, String agentClass, ToolUse toolUse, List<String> allowedTools, int round,
    ApprovalResult approval, Integer callIndex) {
  public ToolCallRequest {
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
  }

  /** A call without its index (as requests recorded before issue 22 read). */
  public ToolCallRequest(String woId, String sessionId, String agentClass, ToolUse toolUse, List<String> allowedTools,
      int round, ApprovalResult approval) {
    this(woId, sessionId, agentClass, toolUse, allowedTools, round, approval, null);
  }

  /** A call that needs no approval. */
  public ToolCallRequest(String woId, String sessionId, String agentClass, ToolUse toolUse, List<String> allowedTools,
      int round) {
    this(woId, sessionId, agentClass, toolUse, allowedTools, round, null, null);
  }
}
