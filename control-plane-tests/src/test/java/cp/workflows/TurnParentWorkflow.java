package cp.workflows;

import cp.model.TurnInput;
import cp.model.TurnResult;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Test code: runs one turn as its session does, as a child workflow, so tests can drive a turn on
 * its own. Its own workflow id must be the turn's session id ({@link TurnOrigin}).
 */
@WorkflowInterface
public interface TurnParentWorkflow {
  @WorkflowMethod
  TurnResult run(String turnWorkflowId, TurnInput in);

  /** Starts the turn as a child with {@code turnWorkflowId} and returns its result. */
  class Impl implements TurnParentWorkflow {
    @Override
    public TurnResult run(String turnWorkflowId, TurnInput in) {
      return Workflow.newChildWorkflowStub(TurnWorkflow.class, ChildWorkflowOptions.newBuilder()
          .setWorkflowId(turnWorkflowId).build()).run(in);
    }
  }
}
