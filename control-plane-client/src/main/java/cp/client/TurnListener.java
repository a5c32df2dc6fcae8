package cp.client;

import cp.model.PendingApproval;
import cp.model.TurnEvent;

/**
 * What a caller of {@link ControlPlaneClient#turn(String, String, TurnListener)} hears while the
 * turn runs, on the calling thread. Override what you need; the rest is ignored.
 */
public interface TurnListener {
  /** Each new step of the turn ({@code classify}, {@code tool read_file}, ... {@code done}): for display only. */
  default void onProgress(String step) {}

  /** A tool call of this turn waits for a person's decision; told once per approval id. */
  default void onApproval(PendingApproval pending) {}

  /**
   * Issue 24: each event of the turn, in order, each once ({@link TurnEvent}): steps, tool calls,
   * approvals, the reply's text as it is written ({@code text_delta}, {@code retracted}) and, last,
   * {@code done}. Heard only when {@link #wantsEvents()}.
   */
  default void onEvent(TurnEvent event) {}

  /** Whether the turn's events are read for {@link #onEvent} (the Query {@code events}, every event poll interval). */
  default boolean wantsEvents() {
    return false;
  }

  /**
   * Whether, once the turn has its result, its last events are read too (to {@code done}), so
   * {@link #onEvent} hears every event. {@code false} for a listener that shows the rest of the
   * reply from the result itself: the client then skips that last read, a Query on the closed turn
   * workflow that a worker answers by replaying the turn (~10 ms a turn, on the turn's critical path).
   */
  default boolean wantsEventsAfterResult() {
    return true;
  }

  /** Whether the turn's steps are read for {@link #onProgress} (a Query every progress interval). */
  default boolean wantsProgress() {
    return true;
  }

  /** Whether pending approvals are read for {@link #onApproval} (the state Query, at the watch interval). */
  default boolean wantsApprovals() {
    return true;
  }
}
