package cp.activities;

import cp.model.WorkOrder;
import cp.workflows.WorkOrderRunner;
import io.temporal.workflow.Workflow;

/** {@link ClassicWorkOrderTestWorkflow}: the classic runner on the same stubs as the turn workflow. */
public class ClassicWorkOrderTestWorkflowImpl implements ClassicWorkOrderTestWorkflow {
  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);
  private final Ho1Activities ho1Local = Workflow.newLocalActivityStub(Ho1Activities.class);

  @Override
  public WorkOrderRunner.Outcome run(WorkOrder dispatched, String agentClass) {
    return new WorkOrderRunner(ho1, ho1Local).run(dispatched, agentClass);
  }
}
