package cp.workflows;

import cp.model.JudgeOutcome;
import cp.model.JudgeRequest;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * An eval case's LLM judge (issue 25 §5): one work order under {@link JudgeRequest#CONTRACT}, run by
 * HO1 like any other (WO_PLANNED … WO_COMPLETED in HO1m, an EXCHANGE per model call, the work
 * order's token budget, the session's tenant's dollars), answering {@code {pass, reason}}.
 */
@WorkflowInterface
public interface EvalJudgeWorkflow {
  String TYPE = "EvalJudge";

  @WorkflowMethod(name = TYPE)
  JudgeOutcome judge(JudgeRequest request);
}
