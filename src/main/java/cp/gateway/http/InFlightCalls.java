package cp.gateway.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;

/**
 * The provider HTTP call each thread is blocked in, so that whoever learns that nobody waits for
 * its answer any more (a Temporal activity whose turn passed its deadline and was cancelled) can
 * cancel it from another thread instead of leaving it to the read timeout (600 s by default).
 */
public final class InFlightCalls {
  private static final Map<Thread, Call> CALLS = new ConcurrentHashMap<>();

  private InFlightCalls() {}

  static void started(Call call) {
    CALLS.put(Thread.currentThread(), call);
  }

  static void finished() {
    CALLS.remove(Thread.currentThread());
  }

  /**
   * Cancels the provider call {@code thread} is blocked in, if any: the call fails at once with
   * an I/O error (recorded as a failed EXCHANGE with no tokens). Returns whether there was one.
   */
  public static boolean cancel(Thread thread) {
    Call call = CALLS.get(thread);
    if (call == null) {
      return false;
    }
    call.cancel();
    return true;
  }
}
