package cp.activities;

import cp.model.ApprovalResult;
import cp.model.TurnApprovals;
import io.temporal.activity.ActivityInterface;

/**
 * How the session and its turn learn each other's side of an approval (issue 20): by Query, never
 * from a signal's content. A signal between them is only a wake-up; the woken workflow runs one of
 * these (an activity, whose answer its history records) and believes only what the other
 * workflow's own state says, which no outside client can set except through the validated
 * {@code approve} Update.
 */
@ActivityInterface(namePrefix = "ApprovalLookup")
public interface ApprovalLookupActivities {
  /**
   * The decision session {@code sessionId} accepted for {@code approvalId}, with the identity the
   * Temporal service recorded for the client that sent the {@code approve} Update; null while
   * nobody has decided.
   */
  ApprovalResult claimedDecision(String sessionId, String approvalId);

  /** What turn {@code turnWorkflowId} waits for and how it recorded its decisions. */
  TurnApprovals turnApprovals(String turnWorkflowId);
}
