package cp.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Which signal stopped {@code cpctl chat}: the JVM runs the same shutdown hooks for SIGINT,
 * SIGTERM and SIGHUP, and only SIGINT is a Ctrl-C (a tester's report: SIGTERM said
 * "interrupted (Ctrl-C)" and recorded that in SESSION_END). Each handler notes its signal and
 * hands it on to the handler it replaced, so the JVM still runs the hooks and exits with
 * 128 + the signal's number (130, 143, 129) as before.
 *
 * <p>{@code sun.misc.Signal} (module {@code jdk.unsupported}) is the JDK's supported way to
 * see a signal, as in {@link StopSignals}. Where the JVM refuses a handler (run with {@code -Xrs})
 * nothing is noted and the hook names no signal. Thread safety: handlers run on the JVM's signal
 * threads; every method may be called from any thread.
 */
final class ChatSignals implements AutoCloseable {
  /** The signals whose default action runs the shutdown hooks, in the JVM's spelling. */
  static final List<String> NAMES = List.of("INT", "TERM", "HUP");

  private final AtomicReference<String> received = new AtomicReference<>();
  private final List<Signal> installed = new ArrayList<>();
  private final List<SignalHandler> replaced = new ArrayList<>();

  private ChatSignals() {}

  /** Notes SIGINT, SIGTERM and SIGHUP from now on, until {@link #close}. */
  static ChatSignals install() {
    ChatSignals s = new ChatSignals();
    for (String name : NAMES) {
      Signal sig = new Signal(name);
      try {
        SignalHandler[] previous = new SignalHandler[1];
        previous[0] = Signal.handle(sig, arrived -> {
          s.received(name);
          SignalHandler next = previous[0];
          if (next != null && next != SignalHandler.SIG_IGN && next != SignalHandler.SIG_DFL) {
            next.handle(arrived);
          } else if (next == SignalHandler.SIG_DFL) {
            // No JVM handler to hand on to (not expected): stop as the default would, hooks first.
            Runtime.getRuntime().exit(128 + arrived.getNumber());
          }
        });
        s.installed.add(sig);
        s.replaced.add(previous[0]);
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // The JVM keeps this signal to itself (-Xrs, or the OS): nothing is noted for it.
      }
    }
    return s;
  }

  /** Notes a signal by its JVM name (INT, TERM, HUP); the first one counts. */
  void received(String name) {
    received.compareAndSet(null, name);
  }

  /** What stopped chat: the first signal noted, or {@link ChatInterrupt.Cause#SHUTDOWN} when none was. */
  ChatInterrupt.Cause cause() {
    String name = received.get();
    if (name == null) {
      return ChatInterrupt.Cause.SHUTDOWN;
    }
    return switch (name) {
      case "INT" -> ChatInterrupt.Cause.CTRL_C;
      case "TERM" -> ChatInterrupt.Cause.SIGTERM;
      default -> ChatInterrupt.Cause.SIGHUP;
    };
  }

  /** Puts back the handlers this replaced (chat is over; the process may go on, e.g. in tests). */
  @Override
  public void close() {
    for (int i = 0; i < installed.size(); i++) {
      try {
        Signal.handle(installed.get(i), replaced.get(i));
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // Nothing to put back.
      }
    }
  }
}
