package cp.activities;

import cp.model.WorkOrder;
import cp.workflows.WorkOrderRunner;
import io.temporal.workflow.Workflow;

/**
 * The same stubs as {@code TurnWorkflowImpl}: prepare and finish as local activities, each
 * gateway round trip and each tool call as an activity, all options from the worker's
 * {@code TemporalOptions.implementationOptions}. Runs HO1 as current turn workflows do (lean:
 * the round trips prepare and finish the work order).
 */
public class WorkOrderTestWorkflowImpl implements WorkOrderTestWorkflow {
  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);
  private final Ho1Activities ho1Local = Workflow.newLocalActivityStub(Ho1Activities.class);

  @Override
  public WorkOrderRunner.Outcome run(WorkOrder dispatched, String agentClass) {
    return new WorkOrderRunner(ho1, ho1Local, step -> { }, true).run(dispatched, agentClass);
  }
}
