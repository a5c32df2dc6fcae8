package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * A tool call waiting for a person's decision (issue 15): what the session's Query {@code state}
 * lists under {@code pending_approvals} and {@code cpctl approvals} shows. The summary is what a
 * person judges the call by (for write_file: path, size, first lines), never a secret.
 *
 * @param approvalId the id to decide it by ({@code APR-…}), unique in the plane
 * @param turnWorkflowId the turn that waits ({@code SES-…/turn-0001})
 * @param requestedAt when the call asked, ISO-8601 UTC
 * @param deadline when the wait ends without a decision, ISO-8601 UTC
 * @param onTimeout what the call gets then: {@code deny} or {@code grant}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PendingApproval(String approvalId, String sessionId, int turn, String turnWorkflowId, String woId,
    String tool, String toolUseId, String summary, String requestedAt, String deadline, long timeoutSeconds,
    String onTimeout, String requestEntryId) {
  public PendingApproval {
    Objects.requireNonNull(approvalId, "approval_id");
    Objects.requireNonNull(tool, "tool");
  }
}
