package cp.activities;

import cp.gateway.http.InFlightCalls;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.client.ActivityCanceledException;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Heartbeats while a blocking call (an HTTP round trip, a tool) is in flight, so a worker that
 * dies mid-call is noticed after the heartbeat timeout rather than the start-to-close timeout.
 *
 * <p>The first beat comes one interval after the call starts, not at once: the service times a
 * silent activity out one heartbeat timeout after it started, so a call that ends within the
 * interval needs no heartbeat at all, and a long one still beats several times per timeout.
 */
final class Heartbeats {
  /** Beat this many times per heartbeat timeout; the SDK throttles what it actually sends. */
  static final int BEATS_PER_TIMEOUT = 4;
  static final Duration MIN_INTERVAL = Duration.ofMillis(100);
  private static final ScheduledExecutorService TICKER = Executors.newScheduledThreadPool(1, r -> {
    Thread t = new Thread(r, "activity-heartbeat");
    t.setDaemon(true);
    return t;
  });

  private Heartbeats() {}

  static <T> T during(Callable<T> call) throws Exception {
    return during(Activity.getExecutionContext(), call);
  }

  /** As {@link #during(Callable)}, for the activity of {@code ctx}. */
  static <T> T during(ActivityExecutionContext ctx, Callable<T> call) throws Exception {
    Duration timeout = ctx.getInfo().getHeartbeatTimeout();
    if (ctx.getInfo().isLocal() || timeout == null || timeout.isZero()) {
      return call.call();
    }
    long interval = Math.max(MIN_INTERVAL.toMillis(), timeout.toMillis() / BEATS_PER_TIMEOUT);
    try (InFlightCalls.Scope calls = InFlightCalls.open()) {
      ScheduledFuture<?> beat = TICKER.scheduleAtFixedRate(() -> {
        try {
          ctx.heartbeat(null);
        } catch (ActivityCompletionException e) {
          if (nobodyWaits(e)) {
            // The turn passed its deadline and was cancelled: end this activity's provider call now,
            // not at its read timeout.
            calls.cancel();
          }
        } catch (RuntimeException e) {
          // A closed client surfaces through the call itself.
        }
      }, interval, interval, TimeUnit.MILLISECONDS);
      try {
        return call.call();
      } finally {
        beat.cancel(false);
      }
    }
  }

  /**
   * Whether a heartbeat failure means nobody waits for the call's answer: a cancel the service asked
   * for (the turn passed its deadline), the service no longer knowing the attempt (its workflow
   * closed), the worker stopping. Not when the heartbeat could not reach the service for a heartbeat
   * timeout (the SDK then cancels the activity locally, with a heartbeat {@link TimeoutFailure} as
   * the cause): the service may be back in a moment and the call was sent and will be paid for, so it
   * runs to its answer, which the gateway records and charges and the next attempt of the activity
   * reuses instead of sending the call again.
   */
  static boolean nobodyWaits(ActivityCompletionException e) {
    return !(e instanceof ActivityCanceledException
        && e.getCause() instanceof TimeoutFailure t && t.getTimeoutType() == TimeoutType.TIMEOUT_TYPE_HEARTBEAT);
  }
}
