package cp.workflows;

import cp.model.Refusal;
import cp.model.TurnInput;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;

/**
 * Who may run a turn: only its session, as its child workflow. A turn's input carries the agent's
 * profile (budgets, tools, approvals), so a turn started directly by a client with access to the
 * namespace would run model and tool calls on a profile of the client's making (no approval before
 * write_file, any budget), outside every session's governance. From {@link #TURN_OF_SESSION} 1 on
 * such a turn fails at once, non-retryable, before it runs anything. Deterministic: the parent is
 * read from the workflow's start, which its history records.
 */
final class TurnOrigin {
  /** Version marker: a turn refuses to run unless its parent is the session its input names. */
  static final String TURN_OF_SESSION = "turn-of-session";

  private TurnOrigin() {}

  /** Fails the turn (start_refused) unless it is the child of the session {@code in} names. */
  static void refuseUnlessChildOfItsSession(TurnInput in) {
    if (Workflow.getVersion(TURN_OF_SESSION, Workflow.DEFAULT_VERSION, 1) < 1) {
      return;
    }
    String parent = Workflow.getInfo().getParentWorkflowId().orElse(null);
    if (in == null || in.sessionId() == null || !in.sessionId().equals(parent)) {
      ApplicationFailure af = ApplicationFailure.newNonRetryableFailure("a turn runs only as the child workflow of its"
          + " session (session " + (in == null ? null : in.sessionId()) + "); this one was started "
          + (parent == null ? "directly, by a client" : "by workflow " + parent) + ": refused, nothing ran",
          Refusal.START_REFUSED);
      af.setStackTrace(new StackTraceElement[0]);
      throw af;
    }
  }
}
