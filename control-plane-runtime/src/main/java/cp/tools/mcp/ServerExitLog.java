package cp.tools.mcp;

import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * The one log line of a stdio server's exit, with its status and the last lines it wrote to stderr
 * (the log masks secrets; the model-facing reasons leave stderr out), logged once per process by
 * whichever notices the exit first: the exit watch, the call it ended, or the start it failed.
 * Thread-safe.
 */
final class ServerExitLog {
  /**
   * A server that exited has its stderr logged once it is read to its end (its last lines trail its
   * exit through the reader), or after {@code STDERR_WAIT} at most (a child it left holds it open).
   */
  static final Duration STDERR_WAIT = Duration.ofSeconds(2);

  private final McpServerSpec spec;
  private final Logger log;

  /** @param log the connection's logger: operators (and tests) find the server's lines under it */
  ServerExitLog(McpServerSpec spec, Logger log) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Logs a started server's exit once ({@code when}: "" or "during a call of X"). */
  void report(IsolatedStdioTransport t, int status, String when) {
    if (!t.firstToReportExit()) {
      return;
    }
    String tail = stderrAfterExit(t);
    log.warn("mcp server {} ({}) exited with status {}{}; it is started again on the next call; {}", spec.name(),
        spec.describe(), status, when.isEmpty() ? "" : " " + when,
        tail.isEmpty() ? "it wrote nothing to stderr" : "its stderr ended:\n" + tail);
  }

  /**
   * Why a start failed when the server's process exited before it was started ({@code when}: before
   * answering the handshake, while its tools were listed); logs its stderr once.
   */
  RuntimeException atStart(IsolatedStdioTransport t, int status, String when) {
    if (!t.firstToReportExit()) {
      return new IllegalStateException("the server's process exited with status " + status + " " + when);
    }
    String tail = stderrAfterExit(t);
    log.warn("mcp server {} ({}) exited with status {} {}; {}", spec.name(), spec.describe(), status, when,
        tail.isEmpty() ? "it wrote nothing to stderr" : "its stderr ended:\n" + tail);
    return new IllegalStateException("the server's process exited with status " + status + " " + when
        + " (its stderr is in the worker's log)");
  }

  /** The exited server's last stderr lines, once read to their end (or {@link #STDERR_WAIT}). */
  private static String stderrAfterExit(IsolatedStdioTransport t) {
    try {
      t.awaitStderrEnd(STDERR_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return t.stderrTail();
  }
}
