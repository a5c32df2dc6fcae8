package cp.tools.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's stdio transport, except that the server starts with an empty environment (plus what
 * the parameters carry) in its own working directory: the SDK's process builder starts from a copy
 * of the worker's whole environment. The parameters carry {@link MinimalEnvironment} (the SDK adds
 * PATH, HOME, USER, LOGNAME, SHELL and TERM to them itself).
 *
 * <p>It also says when its process exits ({@link #exited()}, one daemon thread a process) and
 * keeps the last lines the server wrote to stderr ({@link #stderrTail()}), so a server that dies
 * at start is reported at once and with its own words.
 */
final class IsolatedStdioTransport extends StdioClientTransport {
  /** How many of the server's last stderr lines are kept, each cut to {@link #STDERR_LINE_CHARS}: enough for an error and its first frames. */
  static final int STDERR_LINES = 10;
  static final int STDERR_LINE_CHARS = 300;

  private final Path cwd;
  private final CompletableFuture<Void> exited = new CompletableFuture<>();
  private final Deque<String> stderr = new ArrayDeque<>();
  /** When the last stderr line was passed on ({@link System#nanoTime()}); guarded by {@link #stderr}. */
  private long lastStderrNanos = System.nanoTime();
  private final String name;

  IsolatedStdioTransport(ServerParameters params, McpJsonMapper mapper, Path cwd, String name) {
    super(params, mapper);
    this.cwd = cwd;
    this.name = name;
  }

  @Override
  protected ProcessBuilder getProcessBuilder() {
    ProcessBuilder pb = new ProcessBuilder();
    pb.environment().clear();
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    return pb;
  }

  /** Once the process is started, a daemon thread waits for its exit (see {@link #exited()}). */
  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return super.connect(handler).doOnSuccess(v -> watchExit());
  }

  /** Keeps each line in {@link #stderrTail()} as well as passing it on. */
  @Override
  public void setStdErrorHandler(Consumer<String> handler) {
    super.setStdErrorHandler(line -> {
      synchronized (stderr) {
        if (stderr.size() == STDERR_LINES) {
          stderr.removeFirst();
        }
        stderr.addLast(line.length() > STDERR_LINE_CHARS ? line.substring(0, STDERR_LINE_CHARS) + "…" : line);
        lastStderrNanos = System.nanoTime();
      }
      handler.accept(line);
    });
  }

  /** Completes when the server's process has exited (never, if it was never started). */
  CompletableFuture<Void> exited() {
    return exited;
  }

  /** The server's last stderr lines, oldest first, one a line; empty when it wrote none. */
  String stderrTail() {
    synchronized (stderr) {
      return String.join("\n", stderr);
    }
  }

  /**
   * Waits until no stderr line has come for {@code quiet} (the reader passes on the last lines of a
   * process that just exited a little after its exit), at most {@code max}.
   */
  void awaitStderrQuiet(java.time.Duration quiet, java.time.Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      long since;
      synchronized (stderr) {
        since = System.nanoTime() - lastStderrNanos;
      }
      if (since >= quiet.toNanos()) {
        return;
      }
      Thread.sleep(Math.max(1, (quiet.toNanos() - since) / 1_000_000));
    }
  }

  private void watchExit() {
    Thread watcher = new Thread(() -> {
      try {
        awaitForExit();
      } catch (RuntimeException ignored) {
        // interrupted: the worker is stopping, and the process goes with it
      }
      exited.complete(null);
    }, "cp-mcp-exit-" + name);
    watcher.setDaemon(true);
    watcher.start();
  }
}
