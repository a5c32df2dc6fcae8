package cp.workflows;

import cp.activities.ApprovalLookupActivities;
import cp.model.AgentProfile;
import cp.model.ApprovalClaim;
import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.Refusal;
import cp.model.RefusedException;
import cp.model.RootCause;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.UpdateInfo;
import io.temporal.workflow.Workflow;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The session's side of approvals (issues 15 and 20): the {@code approve} Update (validated: a
 * pending id, not decided, an allowed approver; the first decision claims the approval, wakes the
 * waiting turn and is answered with what the turn recorded), the turn's wake-up signals, and the
 * Query a waiting turn asks. From {@link ApprovalGate#APPROVAL_BY_QUERY} 1 on the book
 * ({@link SessionApprovals}) learns only from the running turn's own answer
 * ({@link TurnApprovalSync}); before, from the signals' content (kept for replay).
 */
final class SessionApprovalDesk {
  private final SessionApprovals book = new SessionApprovals();
  private final TurnApprovalSync sync;
  /** Whether this run takes approvals by Query; null until it knows. */
  private Boolean byQuery;

  SessionApprovalDesk(Supplier<String> sessionId) {
    this.sync = new TurnApprovalSync(Workflow.newActivityStub(ApprovalLookupActivities.class,
        ApprovalGate.LOOKUP_OPTIONS), book, sessionId);
  }

  /**
   * Whether this run takes approvals by Query. Asked first at the run's start; a signal that
   * arrives before (in the first workflow task) asks it there, at the same point on every replay.
   */
  boolean byQuery() {
    if (byQuery == null) {
      byQuery = Workflow.getVersion(ApprovalGate.APPROVAL_BY_QUERY, Workflow.DEFAULT_VERSION, 1) >= 1;
    }
    return byQuery;
  }

  /** Starts the watcher that reads the running turn's approvals on each wake-up (by-Query runs only); else null. */
  Promise<Void> watch(Supplier<String> runningTurn) {
    return byQuery() ? Async.procedure(() -> sync.watch(runningTurn)) : null;
  }

  /** Ends the watcher (no turn runs now), so the run closes with no thread left waiting. */
  void stopWatching(Promise<Void> watcher) {
    if (watcher != null) {
      sync.stop();
      watcher.get();
    }
  }

  /** The turn {@code turnWorkflowId} ended: what it recorded is read once more, what still waits is closed. */
  void turnEnded(String turnWorkflowId) {
    if (byQuery() && book.hasOpen(turnWorkflowId)) {
      sync.learnFrom(turnWorkflowId); // what the turn recorded before it ended
    }
    book.turnEnded(turnWorkflowId, Workflow.currentTimeMillis());
  }

  /** What waits and nobody has decided yet, for the Query {@code state}. */
  List<PendingApproval> undecided() {
    return book.undecided();
  }

  /** The {@code approve} validator: refuses, before anything happens, what {@link #approve} would. */
  void validate(ApprovalDecision decision, String sessionId, AgentProfile profile) {
    book.refusal(decision, sessionId, profile).ifPresent(p -> {
      throw new RefusedException(Refusal.APPROVAL_REFUSED, p.message(), p.refusal());
    });
  }

  /**
   * The first accepted decision claims the approval (every later one is refused, naming it), wakes
   * the waiting turn, and is answered with what the turn recorded. The session records nothing
   * itself: APPROVAL_DECIDED is the turn's, so the record and the wait agree.
   */
  ApprovalResult approve(ApprovalDecision decision, String sessionId, AgentProfile profile) {
    Optional<Refusal.Problem> refused = book.refusal(decision, sessionId, profile);
    if (refused.isPresent()) {
      ApplicationFailure af = ApplicationFailure.newNonRetryableFailure(refused.get().message(),
          Refusal.APPROVAL_REFUSED, refused.get().refusal());
      af.setStackTrace(new StackTraceElement[0]);
      throw af;
    }
    PendingApproval waiting = book.waiting(decision.approvalId()).orElseThrow();
    ApprovalResult claim = book.claim(decision, Workflow.currentTimeMillis(),
        Workflow.getCurrentUpdateInfo().map(UpdateInfo::getUpdateId).orElse(null));
    try {
      // A wake-up (its content is for turns from before approval-by-query, which took it as the decision).
      Workflow.newExternalWorkflowStub(TurnWorkflow.class, waiting.turnWorkflowId()).approvalDecided(claim);
    } catch (RuntimeException e) {
      // The turn has gone (it ended meanwhile): turnEnded closes the approval, and the answer says so.
      Workflow.getLogger(SessionApprovalDesk.class).warn("session {}: approval {} could not be forwarded to {}: {}",
          sessionId, claim.approvalId(), waiting.turnWorkflowId(), RootCause.innermostMessage(e));
    }
    Workflow.await(() -> book.recorded(claim.approvalId()).isPresent());
    return SessionApprovals.answer(book.recorded(claim.approvalId()).orElseThrow(), claim);
  }

  /** The signal {@code approval_pending}: a wake-up from approval-by-query 1 on; before, the turn's word. */
  void pendingSignal(PendingApproval pending, String sessionId, String runningTurnWorkflowId) {
    if (byQuery()) {
      sync.ring();
    } else {
      book.pending(pending, sessionId, runningTurnWorkflowId);
    }
  }

  /** The signal {@code approval_closed}: a wake-up from approval-by-query 1 on; before, the turn's word. */
  void closedSignal(ApprovalResult recorded) {
    if (byQuery()) {
      sync.ring();
    } else {
      book.closed(recorded);
    }
  }

  /** The Query {@code approval_claim}: the decision accepted for {@code approvalId} and not yet recorded. */
  ApprovalClaim claimOf(String approvalId) {
    return book.claimOf(approvalId).orElse(null);
  }
}
