package cp.gateway;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The calls this gateway has in flight, by the key of the activity that makes them, so that a later
 * attempt of the same activity waits for an earlier one instead of sending the call again. That
 * happens when the Temporal service cannot hear the earlier attempt's heartbeats (it was stopped or
 * unreachable for longer than the heartbeat timeout): the service times the attempt out and starts
 * the next on this worker while the provider is still answering the first. Once the earlier attempt
 * ends, the later one finds its EXCHANGE and answers from it, so the call is sent, recorded and
 * charged once. Attempts on another worker cannot be seen from here: each holds its own tenant
 * reservation, and an answer recorded after another attempt's is kept as its duplicate
 * ({@link DuplicateAnswers}).
 *
 * <p>Thread-safe. The wait is bounded by the earlier attempt's own provider call (its read
 * timeout); the waiting attempt's activity keeps heartbeating meanwhile.
 */
final class AttemptsInFlight {
  private final ConcurrentHashMap<String, CountDownLatch> calls = new ConcurrentHashMap<>();

  /** An attempt's turn at its activity's call; {@link #close()} it when its call has ended. */
  final class Turn implements AutoCloseable {
    private final String key;
    private final CountDownLatch done;

    private Turn(String key, CountDownLatch done) {
      this.key = key;
      this.done = done;
    }

    @Override
    public void close() {
      if (key != null) {
        calls.remove(key, done);
        done.countDown();
      }
    }
  }

  /**
   * Waits while an earlier attempt of the activity {@code key} is in flight here, then takes the
   * call's turn ({@code key} null: a call outside Temporal, which never waits).
   */
  Turn take(String key) {
    if (key == null) {
      return new Turn(null, null);
    }
    CountDownLatch mine = new CountDownLatch(1);
    while (true) {
      CountDownLatch earlier = calls.putIfAbsent(key, mine);
      if (earlier == null) {
        return new Turn(key, mine);
      }
      try {
        earlier.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for an earlier attempt of " + key, e);
      }
    }
  }
}
