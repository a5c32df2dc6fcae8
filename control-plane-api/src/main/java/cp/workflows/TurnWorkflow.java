package cp.workflows;

import cp.model.TurnInput;
import cp.model.TurnResult;
import cp.model.ApprovalResult;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** HO2 for one turn (Kitchener steps 2 and 4): classify, attend, synthesize, gate, retry or escalate. */
@WorkflowInterface
public interface TurnWorkflow {
  @WorkflowMethod
  TurnResult run(TurnInput input);

  /** The step the turn is in (classify, attention, synthesize, tool, quality gate, done), for progress displays. */
  @QueryMethod
  String progress();

  /**
   * Issue 15, sent by the session only: the decision on an approval this turn waits for (the
   * session validated the {@code approve} Update). A decision for another approval is ignored.
   */
  @SignalMethod(name = APPROVAL_DECIDED)
  void approvalDecided(ApprovalResult decision);

  String APPROVAL_DECIDED = "approval_decided";
}
