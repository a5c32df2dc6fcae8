package cp.tools.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * A stdio transport for the SDK's client, in place of the SDK's own {@code StdioClientTransport},
 * which (2.1.0) copies the worker's whole environment into the server's and stops reading the
 * server's stdout for good at the first line that is not JSON-RPC (the server then looks alive but
 * never answers again).
 *
 * <p>The server starts with the parameters' environment only ({@link MinimalEnvironment}; the SDK's
 * parameters add PATH, HOME, USER, LOGNAME, SHELL and TERM themselves) in its own working directory.
 * A stdout line that is not a JSON-RPC message (a banner, a stray print) is skipped: the first of a
 * process is logged at WARN, one line cut to {@link #SKIPPED_LINE_CHARS}, later ones at DEBUG.
 * It says when its process exits and with which status ({@link #exited()}), and keeps the last lines
 * the server wrote to stderr ({@link #stderrTail()}).
 */
final class IsolatedStdioTransport implements McpClientTransport {
  private static final Logger LOG = LoggerFactory.getLogger(IsolatedStdioTransport.class);
  /** How many of the server's last stderr lines are kept, each cut to {@link #STDERR_LINE_CHARS}: enough for an error and its first frames. */
  static final int STDERR_LINES = 10;
  static final int STDERR_LINE_CHARS = 300;
  /** How much of a skipped stdout line the log shows: enough to recognise a banner or a debug print. */
  static final int SKIPPED_LINE_CHARS = 200;
  /**
   * The longest stdout line taken as a message, 16 Mi characters (the SDK's own transport's bound):
   * a longer one is skipped, so a server writing without end cannot exhaust the worker's memory.
   */
  static final int MAX_LINE_CHARS = 16 * 1024 * 1024;
  /**
   * After the process exited, how long its stdout is still read before {@link #exited()} completes:
   * its last answers are in the pipe; a child it left running may hold the pipe open for good.
   */
  static final Duration DRAIN = Duration.ofSeconds(2);
  /** How long a closed server has to exit after SIGTERM before it is killed. */
  static final Duration TERM_GRACE = Duration.ofSeconds(2);

  private final ServerParameters params;
  private final McpJsonMapper mapper;
  private final Path cwd;
  private final String name;
  private final Consumer<String> stderrHandler;
  private final Sinks.Many<McpSchema.JSONRPCMessage> inbound = Sinks.many().unicast().onBackpressureBuffer();
  /** Writes to the server's stdin one message after another, off the caller's thread (a full pipe blocks). */
  private final ExecutorService writer;
  private final CompletableFuture<Integer> exited = new CompletableFuture<>();
  private final CompletableFuture<Void> stdoutDone = new CompletableFuture<>();
  private final CompletableFuture<Void> stderrDone = new CompletableFuture<>();
  private final Deque<String> stderr = new ArrayDeque<>();
  private final AtomicInteger skipped = new AtomicInteger();
  private final java.util.concurrent.atomic.AtomicBoolean exitReported = new java.util.concurrent.atomic.AtomicBoolean();
  private volatile Process process;
  /** The process once started: the SDK sends its first message before {@link #connect} has run. */
  private final CompletableFuture<Process> started = new CompletableFuture<>();
  private volatile boolean closing;

  /** @param stderrHandler told each line the server writes to stderr */
  IsolatedStdioTransport(ServerParameters params, McpJsonMapper mapper, Path cwd, String name,
      Consumer<String> stderrHandler) {
    this.params = Objects.requireNonNull(params, "params");
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    this.cwd = cwd;
    this.name = Objects.requireNonNull(name, "name");
    this.stderrHandler = Objects.requireNonNull(stderrHandler, "stderrHandler");
    this.writer = Executors.newSingleThreadExecutor(r -> daemon(r, "cp-mcp-stdin-" + name));
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.<Void>fromRunnable(() -> {
      inbound.asFlux().flatMap(m -> Mono.just(m).transform(handler)).subscribe();
      List<String> command = new ArrayList<>();
      command.add(params.getCommand());
      command.addAll(params.getArgs());
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.environment().clear();
      pb.environment().putAll(params.getEnv());
      if (cwd != null) {
        pb.directory(cwd.toFile());
      }
      Process p;
      try {
        p = pb.start();
      } catch (IOException e) {
        UncheckedIOException failed = new UncheckedIOException("cannot start " + params.getCommand() + ": "
            + e.getMessage(), e);
        started.completeExceptionally(failed);
        throw failed;
      }
      process = p;
      started.complete(p);
      if (closing) {
        p.destroyForcibly(); // closed while it was starting: nobody will talk to it
      }
      daemon(() -> readStdout(p.getInputStream()), "cp-mcp-stdout-" + name).start();
      daemon(() -> readStderr(p.getErrorStream()), "cp-mcp-stderr-" + name).start();
      p.onExit().thenCompose(x -> stdoutDone.copy().completeOnTimeout(null, DRAIN.toMillis(), TimeUnit.MILLISECONDS))
          .thenRun(() -> exited.complete(p.exitValue()));
    }).subscribeOn(Schedulers.boundedElastic());
  }

  private void readStdout(InputStream out) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
      BoundedLines lines = new BoundedLines(r, MAX_LINE_CHARS);
      String line;
      while ((line = lines.next()) != null) {
        if (lines.tooLong()) {
          skip("[a line of " + lines.tooLongChars() + " characters, longer than " + MAX_LINE_CHARS + "]");
          continue;
        }
        if (line.isBlank()) {
          continue;
        }
        McpSchema.JSONRPCMessage message;
        try {
          message = McpSchema.deserializeJsonRpcMessage(mapper, line);
        } catch (IOException | RuntimeException e) {
          skip(line);
          continue;
        }
        if (!inbound.tryEmitNext(message).isSuccess()) {
          break; // closed
        }
      }
    } catch (IOException e) {
      if (!closing) {
        LOG.debug("mcp server {}: reading its stdout failed: {}", name, e.getMessage());
      }
    } finally {
      stdoutDone.complete(null);
      inbound.tryEmitComplete();
    }
  }

  private void skip(String line) {
    int n = skipped.incrementAndGet();
    if (n == 1) {
      LOG.warn("mcp server {} wrote a line to stdout that is not a JSON-RPC message; it is skipped (later ones from"
          + " this process are logged at DEBUG): {}", name, shown(line));
    } else {
      LOG.debug("mcp server {}: stdout line that is not JSON-RPC skipped ({} so far): {}", name, n, shown(line));
    }
  }

  /** {@code line} as one log line: control characters as spaces, cut to {@link #SKIPPED_LINE_CHARS}. */
  static String shown(String line) {
    String flat = line.replaceAll("\\p{Cntrl}", " ");
    return flat.length() <= SKIPPED_LINE_CHARS ? flat
        : flat.substring(0, SKIPPED_LINE_CHARS) + "…[" + flat.length() + " chars]";
  }

  private void readStderr(InputStream err) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        synchronized (stderr) {
          if (stderr.size() == STDERR_LINES) {
            stderr.removeFirst();
          }
          stderr.addLast(line.length() > STDERR_LINE_CHARS ? line.substring(0, STDERR_LINE_CHARS) + "…" : line);
        }
        stderrHandler.accept(line);
      }
    } catch (IOException e) {
      // the process is gone or closed; what it wrote is kept
    } finally {
      stderrDone.complete(null);
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.fromFuture(() -> started.thenAcceptAsync(p -> write(p, message), writer));
  }

  /**
   * Writes one message and a newline. A server that closed its stdin has exited or is about to:
   * the failed write is logged at DEBUG and {@link #exited()} reports the server's end, with its status.
   */
  private void write(Process p, McpSchema.JSONRPCMessage message) {
    if (closing) {
      throw new IllegalStateException("the connection to the server is closed");
    }
    try {
      OutputStream in = p.getOutputStream();
      in.write(mapper.writeValueAsString(message).getBytes(StandardCharsets.UTF_8));
      in.write('\n');
      in.flush();
    } catch (IOException e) {
      LOG.debug("mcp server {}: cannot write to its stdin: {}", name, e.getMessage());
    }
  }

  /** Completes with the exit status when the server's process has exited (never, if it was never started). */
  CompletableFuture<Integer> exited() {
    return exited;
  }

  /**
   * True the first time only: the exit is logged once, by whichever notices it first (the exit
   * watch, or the call it ended).
   */
  boolean firstToReportExit() {
    return exitReported.compareAndSet(false, true);
  }

  /** The server's last stderr lines, oldest first, one a line; empty when it wrote none. */
  String stderrTail() {
    synchronized (stderr) {
      return String.join("\n", stderr);
    }
  }

  /** Waits until the server's stderr is read to its end (its process exited), at most {@code max}. */
  void awaitStderrEnd(Duration max) throws InterruptedException {
    try {
      stderrDone.get(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // a child the server left running holds stderr open: what was read so far is the tail
    }
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.<Void>fromRunnable(this::close).subscribeOn(Schedulers.boundedElastic());
  }

  /**
   * Stops the server and every process it started: SIGTERM, then SIGKILL to whatever still runs
   * after {@link #TERM_GRACE}; returns when they are gone ({@link ProcessTree}). Before, the SIGKILL
   * was scheduled and {@code cpctl} could exit first, and the server's own children were never
   * signalled: a hung server outlived the command.
   */
  @Override
  public void close() {
    stop(TERM_GRACE);
  }

  /** Kills the server and every process it started at once: a start that failed has nothing to wind down. */
  void kill() {
    stop(Duration.ZERO);
  }

  private void stop(Duration grace) {
    closing = true;
    inbound.tryEmitComplete();
    writer.shutdownNow();
    ProcessTree.stop(process, grace);
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return mapper.convertValue(data, type);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
