package cp.tools.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Starts and closes the MCP servers of a plane at once, not one after another: each start (or stop)
 * mostly waits on a process or a socket, so N servers that hang at start cost one start timeout,
 * not N, and closing N servers that ignore SIGTERM costs one grace period.
 *
 * <p>At most {@link #AT_ONCE} run at the same time; more wait for a free slot (each further
 * {@code AT_ONCE} hung servers add one start timeout). Stateless: every call has its own threads.
 */
public final class McpStarts {
  /**
   * Sixteen: far more servers than a plane's definitions name in practice, while a runaway directory
   * cannot start hundreds of processes in the same second.
   */
  public static final int AT_ONCE = 16;

  private McpStarts() {}

  /**
   * Starts every connection, at most {@link #AT_ONCE} at the same time, and returns what each listed,
   * in the order given: empty for one that could not be started or reached ({@code unavailable} is
   * told why, in the caller's thread).
   */
  public static List<Optional<McpToolList>> startAll(List<McpConnection> connections,
      java.util.function.BiConsumer<McpConnection, McpUnavailableException> unavailable) {
    List<Optional<McpToolList>> out = new ArrayList<>();
    List<Future<McpToolList>> started = inParallel(connections, c -> c::start);
    for (int i = 0; i < connections.size(); i++) {
      try {
        out.add(Optional.of(started.get(i).get()));
      } catch (ExecutionException e) {
        if (e.getCause() instanceof McpUnavailableException u) {
          unavailable.accept(connections.get(i), u);
          out.add(Optional.empty());
        } else if (e.getCause() instanceof RuntimeException r) {
          throw r;
        } else {
          throw new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new McpUnavailableException(connections.get(i).spec().name(), "interrupted while it was starting");
      }
    }
    return out;
  }

  /** Closes every connection at the same time and returns when all are closed (their processes gone). */
  public static void closeAll(List<McpConnection> connections) {
    for (Future<Object> f : inParallel(connections, c -> () -> {
      c.close();
      return null;
    })) {
      try {
        f.get();
      } catch (ExecutionException e) {
        // close() does not throw; a failure leaves nothing more to do
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static <T> List<Future<T>> inParallel(List<McpConnection> connections,
      Function<McpConnection, java.util.concurrent.Callable<T>> task) {
    if (connections.isEmpty()) {
      return List.of();
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(connections.size(), AT_ONCE), r -> {
      Thread t = new Thread(r, "cp-mcp-start");
      t.setDaemon(true);
      return t;
    });
    try {
      return connections.stream().map(c -> pool.submit(task.apply(c))).toList();
    } finally {
      pool.shutdown(); // the submitted tasks run to their end; the threads go with the last
    }
  }
}
