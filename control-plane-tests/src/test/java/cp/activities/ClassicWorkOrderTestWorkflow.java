package cp.activities;

import cp.model.WorkOrder;
import cp.workflows.WorkOrderRunner;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Test-only: runs one dispatched work order through HO1 in classic mode, as turn workflows
 * recorded before version {@code lean-turn} 1 replay it: prepare and finish as local activities.
 */
@WorkflowInterface
public interface ClassicWorkOrderTestWorkflow {
  @WorkflowMethod
  WorkOrderRunner.Outcome run(WorkOrder dispatched, String agentClass);
}
