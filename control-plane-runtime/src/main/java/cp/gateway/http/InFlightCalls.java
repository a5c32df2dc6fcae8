package cp.gateway.http;

import okhttp3.Call;

/**
 * The provider HTTP call an activity is blocked in, so that whoever learns that nobody waits for
 * its answer any more (a Temporal activity whose turn passed its deadline and was cancelled) can
 * cancel it from another thread instead of leaving it to the read timeout (600 s by default).
 *
 * <p>Each activity opens its own {@link Scope} on its thread: a cancel reaches only the calls made
 * inside that scope, never a later activity's call on the same pooled thread, and a cancel that
 * lands between two attempts of one call (a stale-connection retry) cancels the next attempt as it
 * starts. A scope is used by two threads (the activity's and the heartbeat's); its methods are
 * synchronized.
 */
public final class InFlightCalls {
  private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

  private InFlightCalls() {}

  /** Opens this thread's scope; close it on the same thread when the activity's call is done. */
  public static Scope open() {
    Scope s = new Scope();
    CURRENT.set(s);
    return s;
  }

  static void started(Call call) {
    Scope s = CURRENT.get();
    if (s != null) {
      s.started(call);
    }
  }

  static void finished(Call call) {
    Scope s = CURRENT.get();
    if (s != null) {
      s.finished(call);
    }
  }

  /** One activity's stake in the provider calls its thread makes. */
  public static final class Scope implements AutoCloseable {
    private Call call;
    private boolean cancelled;
    private boolean closed;

    private Scope() {}

    synchronized void started(Call c) {
      call = c;
      if (cancelled) {
        c.cancel();
      }
    }

    synchronized void finished(Call c) {
      if (call == c) {
        call = null;
      }
    }

    /**
     * Cancels the provider call in flight in this scope, and any it starts later: the call fails
     * at once with an I/O error (recorded as a failed EXCHANGE with no tokens). A no-op once the
     * scope is closed.
     */
    public synchronized void cancel() {
      if (closed) {
        return;
      }
      cancelled = true;
      if (call != null) {
        call.cancel();
      }
    }

    @Override
    public void close() {
      synchronized (this) {
        closed = true;
        call = null;
      }
      if (CURRENT.get() == this) {
        CURRENT.remove();
      }
    }
  }
}
