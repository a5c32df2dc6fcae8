package cp.worker;

import cp.activities.ReplySignals;
import cp.model.ReplyBatch;
import cp.workflows.TurnWorkflow;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.SignalWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/** Issue 24: a streamed round's batches as {@code reply_stream} Signals to its turn workflow. */
final class TemporalReplySignals implements ReplySignals {
  /**
   * {@code false}: this worker's rounds do not stream (their replies show when the turn ends),
   * saving the turn's history the batches would take; default {@code true}.
   */
  static final String CP_STREAM_REPLIES = "CP_STREAM_REPLIES";

  /**
   * How long one batch may take to reach the service. A batch only shows text early, so it never
   * holds up the call: a service that does not answer within this (gone, restarting) stops the
   * round's stream after one try (ReplyPublisher), where the client's default RPC retries would
   * hold the activity thread for a minute and keep a draining worker from stopping.
   */
  static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(2);

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
    // One bounded RPC (no retries): through the client's data converter, so payload encryption applies.
    SignalWorkflowExecutionRequest.Builder request = SignalWorkflowExecutionRequest.newBuilder()
        .setNamespace(client.getOptions().getNamespace())
        .setWorkflowExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
        .setSignalName(TurnWorkflow.REPLY_STREAM)
        .setIdentity(client.getOptions().getIdentity())
        .setRequestId(UUID.randomUUID().toString());
    client.getOptions().getDataConverter().toPayloads(batch).ifPresent(request::setInput);
    client.getWorkflowServiceStubs().blockingStub()
        .withDeadlineAfter(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .signalWorkflowExecution(request.build());
  }
}
