package cp.worker;

import cp.activities.ReplySignals;
import cp.model.ReplyBatch;
import cp.workflows.TurnWorkflow;
import io.temporal.client.WorkflowClient;
import java.util.Objects;

/** Issue 24: a streamed round's batches as {@code reply_stream} Signals to its turn workflow. */
final class TemporalReplySignals implements ReplySignals {
  /**
   * {@code false}: this worker's rounds do not stream (their replies show when the turn ends),
   * saving the turn's history the batches would take; default {@code true}.
   */
  static final String CP_STREAM_REPLIES = "CP_STREAM_REPLIES";

  private final WorkflowClient client;

  /** Whether {@code env} lets the worker stream replies; a value other than true or false is refused by name. */
  static boolean enabled(java.util.Map<String, String> env) {
    String v = env.getOrDefault(CP_STREAM_REPLIES, "true").trim();
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(CP_STREAM_REPLIES + " must be true or false, was '" + v + "'");
    }
    return v.equalsIgnoreCase("true");
  }

  TemporalReplySignals(WorkflowClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public void send(String workflowId, ReplyBatch batch) {
    client.newUntypedWorkflowStub(workflowId).signal(TurnWorkflow.REPLY_STREAM, batch);
  }
}
