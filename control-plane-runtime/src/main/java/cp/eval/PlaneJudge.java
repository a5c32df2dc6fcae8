package cp.eval;

import cp.model.JudgeOutcome;
import cp.model.JudgeRequest;
import cp.workflows.EvalJudgeWorkflow;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import java.util.Locale;

/**
 * The judge on the plane (issue 25 §5): each case's rubric is judged by an {@link EvalJudgeWorkflow}
 * on the run's task queue, a work order under PRC-JUDGE-001 in the case's session and tenant
 * {@value EvalScope#TENANT}: governed, budgeted and recorded like the case's own work orders. Its
 * workflow id is the case's session's plus {@code /judge}, so a run started again waits for the
 * judge already running (or done) instead of asking twice.
 */
final class PlaneJudge implements EvalJudge {
  private final WorkflowClient client;
  private final String taskQueue;
  private final long tokenBudget;

  PlaneJudge(WorkflowClient client, String taskQueue, long tokenBudget) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.tokenBudget = tokenBudget;
  }

  @Override
  public JudgeVerdict judge(String runId, EvalCase c, CaseRun run) {
    String id = run.sessionId() + "/judge";
    EvalJudgeWorkflow stub = client.newWorkflowStub(EvalJudgeWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(id).setTaskQueue(taskQueue)
        // a judge that finished before the process was killed is read, never asked again
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE).build());
    JudgeRequest request = new JudgeRequest(run.sessionId(), c.input().agentClass().trim().toUpperCase(Locale.ROOT),
        EvalScope.TENANT, c.expect().judge(), c.input().text(), run.reply(), tokenBudget);
    JudgeOutcome out;
    try {
      WorkflowClient.start(stub::judge, request);
    } catch (WorkflowExecutionAlreadyStarted e) {
      // judged (or judging) in an earlier run of the command: its result is read below
    }
    try {
      out = client.newUntypedWorkflowStub(id).getResult(JudgeOutcome.class);
    } catch (RuntimeException e) {
      return new JudgeVerdict(false, "the judge could not run: " + cp.model.RootCause.innermostMessage(e), null);
    }
    return new JudgeVerdict(out.pass(), out.reason(), out.costUsd());
  }
}
