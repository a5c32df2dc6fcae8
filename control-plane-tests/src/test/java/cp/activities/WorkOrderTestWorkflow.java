package cp.activities;

import cp.model.WorkOrder;
import cp.workflows.WorkOrderRunner;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Test-only: runs one dispatched work order through HO1 ({@link WorkOrderRunner}) and nothing
 * else, so HO1 can be tested on its own with real activities and no HO2 around it.
 */
@WorkflowInterface
public interface WorkOrderTestWorkflow {
  @WorkflowMethod
  WorkOrderRunner.Outcome run(WorkOrder dispatched, String agentClass);
}
