package cp.workflows;

import cp.model.ApprovalClaim;
import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
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
  String APPROVE = "approve";
  String APPROVAL_PENDING = "approval_pending";
  String APPROVAL_CLOSED = "approval_closed";
  String APPROVAL_CLAIM = "approval_claim";

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

  /**
   * Issue 15: decides a tool call that waits for a person. Refused ({@code approval_refused}) for
   * an approval the session does not wait for or one already decided (the message says how, by
   * whom and when); the first decision wins. Answers once the turn has recorded APPROVAL_DECIDED,
   * with that record (a decision that arrives after the approval timed out is answered
   * {@code timed_out}).
   */
  @UpdateMethod(name = APPROVE)
  ApprovalResult approve(ApprovalDecision decision);

  @UpdateValidatorMethod(updateName = APPROVE)
  void validateApprove(ApprovalDecision decision);

  /**
   * Sent by the session's own turn: a tool call now waits for a decision. Only a wake-up (issue
   * 20): the session asks its running turn what it waits for (the turn's Query {@code approvals});
   * the signal's content is not trusted, so a forged one changes nothing.
   */
  @SignalMethod(name = APPROVAL_PENDING)
  void approvalPending(PendingApproval pending);

  /**
   * Sent by the session's own turn: a waiting call was decided and recorded. Only a wake-up, as
   * {@link #approvalPending}: the session reads the record from its turn.
   */
  @SignalMethod(name = APPROVAL_CLOSED)
  void approvalClosed(ApprovalResult recorded);

  /**
   * Internal (issue 20): the decision this session accepted for {@code approvalId} through its
   * {@code approve} Update, or null. The waiting turn asks it when woken; no signal can set it.
   */
  @QueryMethod(name = APPROVAL_CLAIM)
  ApprovalClaim approvalClaim(String approvalId);
}
