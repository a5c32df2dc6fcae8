package cp.activities;

import cp.model.ApprovalRequest;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import io.temporal.activity.ActivityInterface;

/**
 * The ledger side of a tool call that waits for a person (issue 15): its request and its
 * decision, both in HO1m beside the TOOL_CALL they govern. Run as local activities; each write is
 * idempotent by approval id, so a retried attempt never records twice.
 */
@ActivityInterface(namePrefix = "Approval")
public interface ApprovalActivities {
  /**
   * Writes APPROVAL_REQUESTED (tool, approval id, deadline, a summary of the arguments a person can
   * judge and no secret) and returns the pending approval as the session and clients show it.
   */
  PendingApproval request(ApprovalRequest request);

  /** Writes APPROVAL_DECIDED (granted / denied / timed_out, by whom, when, why) for the work order {@code woId}. */
  String decided(ApprovalResult decision, String woId);
}
