package cp.activities;

import cp.model.ReplyBatch;

/** Where a streamed round's batches go (issue 24): a Signal to the turn workflow, through the worker's client. */
@FunctionalInterface
public interface ReplySignals {
  /** Streams nothing: rounds asked to stream are sent one-shot (runs without a Temporal client). */
  ReplySignals NONE = (workflowId, batch) -> { };

  /** Sends {@code batch} to the workflow {@code workflowId}; throws when it cannot. */
  void send(String workflowId, ReplyBatch batch);
}
