package cp.workflows;

import cp.activities.ApprovalLookupActivities;
import cp.model.RootCause;
import cp.model.TurnApprovals;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Keeps the session's book of approvals true to its running turn (issue 20, from
 * {@link ApprovalGate#APPROVAL_BY_QUERY} 1 on). The turn's signals {@code approval_pending} and
 * {@code approval_closed} are only wake-ups, since any client with access to the namespace can
 * send them: on each, the session asks its running turn (the turn's Query {@code approvals},
 * from an activity whose answer the history records; see {@link ApprovalGate#LOOKUP_OPTIONS}) what it waits for and how it recorded
 * its decisions, and believes only that. A forged wake-up costs one look-up and changes nothing.
 */
final class TurnApprovalSync {
  /** How long a failed look-up waits before it asks again; doubled after each failure in a row. */
  static final Duration LOOKUP_RETRY = Duration.ofSeconds(1);
  /**
   * The longest pause between look-ups that keep failing (a worker without the look-up activity, a
   * service that is down): a running turn is bounded by its deadline, so this bounds the history
   * a broken look-up can add to a few dozen attempts.
   */
  static final Duration MAX_LOOKUP_RETRY = Duration.ofSeconds(30);

  private final ApprovalLookupActivities lookup;
  private final SessionApprovals book;
  private final Supplier<String> sessionId;
  private int doorbells;
  private boolean stopped;

  TurnApprovalSync(ApprovalLookupActivities lookup, SessionApprovals book, Supplier<String> sessionId) {
    this.lookup = lookup;
    this.book = book;
    this.sessionId = sessionId;
  }

  /** A signal from a turn (or from anyone): look again. */
  void ring() {
    doorbells++;
  }

  /** Ends {@link #watch} (the run is about to complete or continue as new, when no turn runs). */
  void stop() {
    stopped = true;
  }

  /**
   * The session's watcher, run as its own workflow thread for the life of the run: on each
   * wake-up, reads the running turn's approvals into the book, until {@link #stop}.
   */
  void watch(Supplier<String> runningTurn) {
    int asked = 0;
    Duration pause = LOOKUP_RETRY;
    while (true) {
      int seen = asked;
      Workflow.await(() -> doorbells != seen || stopped);
      if (stopped) {
        return;
      }
      asked = doorbells;
      String turn = runningTurn.get();
      if (turn == null || learnFrom(turn)) {
        pause = LOOKUP_RETRY;
      } else {
        Workflow.await(pause, () -> stopped); // a pause the end of the run cuts short
        pause = pause.multipliedBy(2).compareTo(MAX_LOOKUP_RETRY) > 0 ? MAX_LOOKUP_RETRY : pause.multipliedBy(2);
        doorbells++;
      }
    }
  }

  /** Reads the turn's approvals into the book; false when the turn could not be asked. */
  boolean learnFrom(String turnWorkflowId) {
    TurnApprovals fromTurn;
    try {
      fromTurn = lookup.turnApprovals(turnWorkflowId);
    } catch (ActivityFailure e) {
      Workflow.getLogger(TurnApprovalSync.class).warn("session {}: the turn {} could not be asked for its approvals"
          + " ({}); asking again later", sessionId.get(), turnWorkflowId, RootCause.innermostMessage(e));
      return false;
    }
    book.learn(fromTurn, sessionId.get(), turnWorkflowId);
    return true;
  }
}
