package cp.tools.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Stops a process and every process it started: a stdio server is often a launcher ({@code npx},
 * {@code sh -c}, {@code uv run}) whose child does the work, and a signal to the launcher alone
 * leaves the child running after the worker or {@code cpctl} has gone.
 *
 * <p>The tree is taken before any signal is sent (a child whose parent died is no longer its
 * descendant); a process that left the tree before (a daemon that forked twice) is not found.
 * Returns when every process of the tree has exited, or after {@link #KILL_WAIT}. Thread-safe.
 */
final class ProcessTree {
  /**
   * How long to wait for the processes to be gone after SIGKILL: they cannot ignore it and are gone
   * in milliseconds; only one stuck in the kernel (uninterruptible I/O) takes longer, and is left.
   */
  static final Duration KILL_WAIT = Duration.ofSeconds(5);
  /** How often the tree is looked at while waiting: a process is gone in milliseconds after SIGKILL. */
  static final Duration POLL = Duration.ofMillis(10);

  private ProcessTree() {}

  /**
   * SIGTERM to {@code p} and its descendants, then SIGKILL to whatever still runs after {@code grace}
   * (at once when {@code grace} is zero); returns when they are gone. Nothing when {@code p} is null.
   */
  static void stop(Process p, Duration grace) {
    if (p == null) {
      return;
    }
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(p.toHandle());
    p.descendants().forEach(tree::add);
    if (!grace.isZero() && !grace.isNegative()) {
      tree.forEach(ProcessHandle::destroy);
      awaitExit(tree, grace);
    }
    tree.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
    awaitExit(tree, KILL_WAIT);
  }

  /** Waits until no process of {@code tree} runs any more, at most {@code max}. */
  private static void awaitExit(List<ProcessHandle> tree, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (tree.stream().anyMatch(ProcessTree::running) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Whether {@code h} still runs. A process that exited but whose parent has not collected it yet (a
   * zombie, state {@code Z} in {@code /proc/<pid>/stat} on Linux) counts as gone: it holds no memory,
   * file or port, and a grandchild waits for PID 1 to collect it, which a container's init may do
   * only every few seconds. {@link ProcessHandle#isAlive()} calls such a process alive.
   */
  static boolean running(ProcessHandle h) {
    if (!h.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
      int end = stat.lastIndexOf(')'); // the command name, in parentheses, may hold spaces
      return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return h.isAlive(); // no /proc (not Linux), or the process is gone since
    }
  }
}
