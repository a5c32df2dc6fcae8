package cp.workflows;

import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * A chat session (the Session Host V2 role): the workflow id is the session id, each turn is
 * the {@code turn} Update, {@code end} closes it, {@code state} reports it.
 *
 * <p>The contract any client meets (README "Client contract (draft)"): a start input that is not
 * a session's fails the workflow at once with {@code start_refused}; every refused {@code turn}
 * or {@code end} is a non-retryable {@code turn_refused} with a stable code in details[0]
 * ({@link cp.model.Refusal}); an ended session is a completed workflow whose {@code state} still
 * answers {@code ended: true} and {@code end_reason}.
 */
@WorkflowInterface
public interface SessionWorkflow {
  String TURN = "turn";
  String END = "end";

  @WorkflowMethod
  SessionSummary run(SessionInput input);

  /** Runs one turn and returns its result; never fails for a turn that was accepted. */
  @UpdateMethod(name = TURN)
  TurnResult turn(TurnRequest request);

  /** Rejects, before anything is written, a turn the session cannot take. */
  @UpdateValidatorMethod(updateName = TURN)
  void validateTurn(TurnRequest request);

  /** Ends the session: SESSION_END with the budget summary, then the workflow completes. */
  @UpdateMethod(name = END)
  SessionSummary end();

  @UpdateValidatorMethod(updateName = END)
  void validateEnd();

  @QueryMethod
  SessionState state();
}
