package cp.activities;

import cp.model.ApprovalClaim;
import cp.model.ApprovalResult;
import cp.model.TurnApprovals;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the other side of an approval through the Temporal client: the session's Query
 * {@code approval_claim}, the turn's Query {@code approvals}, and the session's history for the
 * identity the service recorded with the {@code approve} Update (its UpdateAccepted event). Holds
 * only the client, which is thread-safe.
 */
public final class ApprovalLookupActivitiesImpl implements ApprovalLookupActivities {
  /** The session's Query (SessionWorkflow.APPROVAL_CLAIM; activities do not depend on the workflow interfaces). */
  static final String APPROVAL_CLAIM_QUERY = "approval_claim";
  /** The turn's Query (TurnWorkflow.APPROVALS). */
  static final String APPROVALS_QUERY = "approvals";

  private final WorkflowClient client;

  public ApprovalLookupActivitiesImpl(WorkflowClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public ApprovalResult claimedDecision(String sessionId, String approvalId) {
    ApprovalClaim claim = client.newUntypedWorkflowStub(sessionId).query(APPROVAL_CLAIM_QUERY, ApprovalClaim.class,
        approvalId);
    if (claim == null || !approvalId.equals(claim.decision().approvalId())) {
      return null;
    }
    return claim.decision().withClientIdentity(identityOf(sessionId, claim.updateId()).orElse(null));
  }

  @Override
  public TurnApprovals turnApprovals(String turnWorkflowId) {
    TurnApprovals a = client.newUntypedWorkflowStub(turnWorkflowId).query(APPROVALS_QUERY, TurnApprovals.class);
    return a == null ? TurnApprovals.NONE : a;
  }

  /**
   * The identity in the request of Update {@code updateId} as the service accepted it (the
   * session's history, latest run), or empty when the history does not show it.
   */
  Optional<String> identityOf(String sessionId, String updateId) {
    if (updateId == null) {
      return Optional.empty();
    }
    try (Stream<HistoryEvent> events = client.streamHistory(sessionId)) {
      return events.filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)
          .map(e -> e.getWorkflowExecutionUpdateAcceptedEventAttributes().getAcceptedRequest().getMeta())
          .filter(m -> updateId.equals(m.getUpdateId()))
          .map(m -> m.getIdentity())
          .filter(id -> !id.isEmpty())
          .findFirst();
    }
  }
}
