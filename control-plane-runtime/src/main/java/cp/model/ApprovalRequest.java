package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * A tool call that must wait for a person (issue 15), as the turn asks the worker to record it
 * (APPROVAL_REQUESTED in HO1m) and to summarize its arguments for the person.
 *
 * @param requestedAtMillis workflow time of the request, epoch millis (the deadline is computed from it)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalRequest(String approvalId, String sessionId, int turn, String turnWorkflowId, String woId,
    String agentClass, ToolUse toolUse, int round, long timeoutSeconds, boolean grantOnTimeout,
    long requestedAtMillis) {
  public ApprovalRequest {
    Objects.requireNonNull(approvalId, "approval_id");
    Objects.requireNonNull(toolUse, "tool_use");
  }
}
