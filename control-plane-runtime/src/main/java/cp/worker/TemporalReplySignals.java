package cp.worker;

import cp.activities.ReplySignals;
import cp.model.ReplyBatch;
import cp.workflows.TurnWorkflow;
import io.temporal.client.WorkflowClient;
import java.util.Objects;

/** Issue 24: a streamed round's batches as {@code reply_stream} Signals to its turn workflow. */
final class TemporalReplySignals implements ReplySignals {
  private final WorkflowClient client;

  TemporalReplySignals(WorkflowClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public void send(String workflowId, ReplyBatch batch) {
    client.newUntypedWorkflowStub(workflowId).signal(TurnWorkflow.REPLY_STREAM, batch);
  }
}
