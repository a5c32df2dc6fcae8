package cp.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT for a long-running command that drains before it exits (issue 20 §3): the
 * first signal asks for a graceful stop ({@link #awaitFirst} returns), a second one for an
 * immediate one (the {@link #onSecond} action runs). The command then returns its own exit code
 * (0 after a clean drain) instead of the JVM's 143 for a signal.
 *
 * <p>Handling a signal replaces the JVM's own handler, which would run the shutdown hooks and exit
 * at once; the JDK's supported way to do that is {@code sun.misc.Signal} (module
 * {@code jdk.unsupported}, there for exactly this). Where the JVM refuses (run with {@code -Xrs}),
 * {@link #install} returns empty and the caller keeps a shutdown hook instead.
 *
 * <p>Thread safety: signals arrive on the JVM's signal thread; every method may be called from any thread.
 */
final class StopSignals {
  static final java.util.List<String> NAMES = java.util.List.of("TERM", "INT");

  private final CountDownLatch first = new CountDownLatch(1);
  private final AtomicInteger received = new AtomicInteger();
  private final AtomicReference<String> firstName = new AtomicReference<>();
  private final AtomicReference<Runnable> second = new AtomicReference<>(() -> { });

  private StopSignals() {}

  /** Handles SIGTERM and SIGINT from now on, or empty when the JVM does not let us. */
  static java.util.Optional<StopSignals> install() {
    StopSignals s = new StopSignals();
    try {
      for (String name : NAMES) {
        Signal.handle(new Signal(name), sig -> s.received("SIG" + sig.getName()));
      }
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(s);
  }

  /** Receives a signal (package-private for tests that cannot send real ones). */
  void received(String name) {
    if (received.incrementAndGet() == 1) {
      firstName.set(name);
      first.countDown();
    } else {
      // The signal thread must not block: the action starts what stops the work and returns.
      Thread t = new Thread(second.get(), "stop-now");
      t.setDaemon(true);
      t.start();
    }
  }

  /** Waits for the first signal; returns its name (e.g. {@code SIGTERM}). */
  String awaitFirst() throws InterruptedException {
    first.await();
    return firstName.get();
  }

  /** What a second signal does (from then on). */
  void onSecond(Runnable action) {
    second.set(action);
  }
}
