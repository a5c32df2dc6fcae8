package cp.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import cp.model.RootCause;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import cp.tools.registry.ToolOutput;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One MCP server, as the worker keeps it: started (or connected) once, its tools listed, kept for
 * many calls, started again on the next call after it died.
 *
 * <p>The tool list is re-read when the server says it changed ({@code notifications/tools/list_changed})
 * and carries a hash. A call ends as the tool's result, a {@code tool_error} (the server's
 * {@code isError}, or a JSON-RPC error such as an unknown tool), a {@code tool_timeout} (no answer
 * within the request timeout), or {@code server_unavailable} (the server cannot be started or
 * reached, or died during the call), which the operator also gets as one log line. Secrets in the
 * server's env and headers appear in no message: only {@link McpServerSpec#describe()} is logged.
 * Thread-safe.
 */
public final class McpConnection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
  /**
   * The SDK's own bound on any request, behind the bounds set where each request is made: the
   * longest call an agent may allow a tool ({@code tool_timeout_seconds} is at most an hour).
   */
  static final java.time.Duration LONGEST_CALL = java.time.Duration.ofHours(1);
  private final McpServerSpec spec;
  private final ServerExitLog exits;
  private final Map<String, String> workerEnv;
  private final McpSettings settings;
  private final McpJsonMapper mapper = McpJsonDefaults.getMapper();
  private final McpToolChecks checks = new McpToolChecks(new cp.contracts.SchemaValidator());
  private final Object lock = new Object();
  private final AtomicInteger starts = new AtomicInteger();
  /** Guarded by {@link #lock}. */
  private McpAsyncClient client;
  /** The transport of {@link #client}, which cancels a call that timed out. Guarded by {@link #lock}. */
  private CancellableTransport transport;
  /** The stdio transport of {@link #client}, whose exit ends the calls in flight; null over HTTP. Guarded by {@link #lock}. */
  private IsolatedStdioTransport stdio;
  /** Wraps each transport as it is made: the identity, or a test's recorder around it. */
  private final java.util.function.UnaryOperator<McpClientTransport> wrap;
  private volatile boolean alive;
  private volatile boolean closed;
  private volatile McpToolList tools = McpToolList.EMPTY;
  /** Why the last start failed, until a start succeeds; null otherwise. */
  private volatile String startFailure;
  private final java.util.function.Consumer<McpToolList> onToolsChanged;

  /**
   * @param workerEnv the worker's environment, of which a stdio server gets only {@link MinimalEnvironment#PASSED}
   */
  public McpConnection(McpServerSpec spec, Map<String, String> workerEnv, McpSettings settings) {
    this(spec, workerEnv, settings, list -> { });
  }

  /**
   * @param onToolsChanged told each time the server's change notification brings a new listing
   *     (whoever records the list a session saw, with its hash)
   */
  public McpConnection(McpServerSpec spec, Map<String, String> workerEnv, McpSettings settings,
      java.util.function.Consumer<McpToolList> onToolsChanged) {
    this(spec, workerEnv, settings, onToolsChanged, java.util.function.UnaryOperator.identity());
  }

  /** As above, each transport passed through {@code wrap} (a test records what is sent with it). */
  McpConnection(McpServerSpec spec, Map<String, String> workerEnv, McpSettings settings,
      java.util.function.Consumer<McpToolList> onToolsChanged, java.util.function.UnaryOperator<McpClientTransport> wrap) {
    this.wrap = Objects.requireNonNull(wrap, "wrap");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.exits = new ServerExitLog(spec, LOG);
    this.workerEnv = Map.copyOf(workerEnv);
    this.settings = Objects.requireNonNull(settings, "settings");
    this.onToolsChanged = Objects.requireNonNull(onToolsChanged, "onToolsChanged");
  }

  public McpServerSpec spec() {
    return spec;
  }

  public McpSettings settings() {
    return settings;
  }

  /** The tools as last listed (empty before the first start). */
  public McpToolList tools() {
    return tools;
  }

  /** Why the last start failed (one line, no stderr, no secret), while no start has succeeded since. */
  public java.util.Optional<String> startFailure() {
    return java.util.Optional.ofNullable(startFailure);
  }

  /** Whether the server is started and has not died since. */
  public boolean alive() {
    return alive;
  }

  /** How often the server was started (or connected to): 1 after the first start, more after restarts. */
  public int starts() {
    return starts.get();
  }

  /**
   * Starts the server (or connects to it) and lists its tools, unless it is already alive.
   *
   * @throws McpUnavailableException when it cannot be started, reached or listed
   */
  public McpToolList start() {
    synchronized (lock) {
      if (closed) {
        throw new McpUnavailableException(spec.name(), "the connection is closed");
      }
      if (alive && client != null) {
        return tools;
      }
      closeClient();
      McpAsyncClient c = null;
      McpClientTransport made = null;
      // One bound for the whole start, handshake and listing: a server that hangs costs one start timeout.
      long deadline = System.nanoTime() + settings.startTimeout().toNanos();
      try {
        made = McpTransports.of(spec, workerEnv, settings, mapper,
            line -> LOG.debug("mcp server {} stderr: {}", spec.name(), line));
        IsolatedStdioTransport process = made instanceof IsolatedStdioTransport s ? s : null;
        CancellableTransport cancellable = new CancellableTransport(wrap.apply(made));
        // The handshake and the listing are part of starting and get the start timeout where they
        // are made; each tool call is bounded by its own timeout where it is made, which may be
        // longer than the start timeout: the SDK's own request timeout only backs them up.
        c = McpClient.async(cancellable).requestTimeout(LONGEST_CALL)
            .initializationTimeout(settings.startTimeout())
            .clientInfo(new McpSchema.Implementation("control-plane", "1"))
            .toolsChangeConsumer(listed -> Mono.fromRunnable(() -> toolsChanged(listed)))
            .build();
        // A server that dies at start never answers: say so when it exits, not after the start timeout.
        within(orExit(c.initialize(), process, "before answering the MCP handshake"), deadline, "answer the MCP handshake")
            .block();
        McpToolList listed = list(c, process, deadline);
        int generation = starts.incrementAndGet();
        client = c;
        transport = cancellable;
        alive = true;
        if (process != null) {
          stdio = process;
          watchExit(process, generation);
        }
        tools = leaveOutQuietly(listed);
        startFailure = null;
        LOG.info("mcp server {} started ({}): {} tools, hash {}", spec.name(), spec.describe(), tools.tools().size(),
            tools.hash());
        return tools;
      } catch (RuntimeException e) {
        alive = false;
        if (made instanceof IsolatedStdioTransport process) {
          process.kill(); // it never became usable: nothing to wind down, and it must not outlive us
        }
        if (c != null) {
          closeQuietly(c);
        }
        client = null;
        startFailure = RootCause.first(e, TimeoutException.class).isPresent()
            ? notWithin("answer the MCP handshake") // the SDK's own initialization timeout (ours is the same)
            : reason(e);
        throw new McpUnavailableException(spec.name(), startFailure);
      }
    }
  }

  /**
   * {@code step}, or an error as soon as the server's process exited (it will never answer); the
   * exit is logged with its status and its stderr's last lines.
   */
  private <T> Mono<T> orExit(Mono<T> step, IsolatedStdioTransport process, String when) {
    if (process == null) {
      return step;
    }
    // a copy: the race cancels the loser, and cancelling the future itself would silence watchExit
    return step.or(Mono.fromFuture(process.exited().copy()).flatMap(status -> Mono.error(exits.atStart(process,
        status, when))));
  }

  /** {@code step} bounded by what is left of the start's {@code deadline}: past it, a plain sentence saying what did not happen. */
  private <T> Mono<T> within(Mono<T> step, long deadline, String what) {
    Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    return step.timeout(left, Mono.error(() -> new IllegalStateException(notWithin(what))));
  }

  private String notWithin(String what) {
    return "it did not " + what + " within the start timeout of " + settings.startTimeout().toMillis() + " ms ("
        + McpSettings.START_TIMEOUT_VARIABLE + ")";
  }

  /**
   * Calls {@code tool} (the server's own name) with {@code args}, bounded by the request timeout.
   * Never throws: every outcome is a result.
   */
  public ToolResult call(String tool, JsonNode args) {
    return call(tool, args, settings.requestTimeout());
  }

  /**
   * Calls {@code tool} (the server's own name) with {@code args}, bounded by {@code timeout}.
   * Never throws: every outcome is a result.
   */
  public ToolResult call(String tool, JsonNode args, java.time.Duration timeout) {
    McpAsyncClient c;
    CancellableTransport t;
    IsolatedStdioTransport process;
    try {
      start();
      synchronized (lock) {
        c = client;
        t = transport;
        process = stdio;
      }
    } catch (McpUnavailableException e) {
      LOG.warn("mcp server {} ({}) is unavailable: {}", spec.name(), spec.describe(), e.reason());
      return unavailable(e.reason(), false);
    }
    CancellableTransport.SentRequest sent = new CancellableTransport.SentRequest();
    try {
      Mono<McpSchema.CallToolResult> answer = c.callTool(new McpSchema.CallToolRequest(tool, arguments(args)))
          .contextWrite(CancellableTransport.tracking(sent));
      if (process != null) {
        // A server that exits never answers: end the call when it exited, not at its timeout.
        answer = answer.or(Mono.fromFuture(process.exited().copy())
            .flatMap(status -> Mono.error(new ExitedDuringCall(status))));
      }
      McpSchema.CallToolResult r = answer.timeout(timeout).block();
      return McpContent.toResult(r);
    } catch (McpError e) {
      return ToolResult.error(ToolErrorCodes.TOOL_ERROR, "MCP server '" + spec.name() + "' refused " + tool + ": "
          + ToolOutput.message(e.getMessage()));
    } catch (RuntimeException e) {
      if (RootCause.first(e, TimeoutException.class).isPresent()) {
        cancel(t, sent, tool, timeout);
        return ToolResult.error(ToolErrorCodes.TOOL_TIMEOUT, tool + " on MCP server '" + spec.name()
            + "' did not answer within " + timeout.toMillis() + " ms; the call was abandoned");
      }
      markDead(c);
      if (process != null && RootCause.first(e, ExitedDuringCall.class).isPresent()) {
        exits.report(process, RootCause.first(e, ExitedDuringCall.class).get().status, "during a call of " + tool);
      } else {
        LOG.warn("mcp server {} ({}) failed during a call of {}: {}", spec.name(), spec.describe(), tool, reason(e));
      }
      return unavailable(reason(e), true);
    }
  }

  /**
   * Tells the server the call timed out (MCP's cancellation), so it may stop the work; best effort:
   * the call has already ended as tool_timeout whatever the server does with it.
   */
  private void cancel(CancellableTransport t, CancellableTransport.SentRequest sent, String tool,
      java.time.Duration timeout) {
    if (t == null || sent.id() == null) {
      return;
    }
    try {
      t.cancel(sent.id(), "the client stopped waiting after " + timeout.toMillis() + " ms")
          .timeout(settings.startTimeout()).block();
    } catch (RuntimeException e) {
      LOG.debug("mcp server {}: the cancellation of {} could not be sent: {}", spec.name(), tool, reason(e));
    }
  }

  private ToolResult unavailable(String reason, boolean duringCall) {
    return ToolResult.error(ToolErrorCodes.SERVER_UNAVAILABLE, "MCP server '" + spec.name() + "' is unavailable ("
        + reason + ")" + (duringCall ? "; whether the tool ran is unknown" : "; the tool did not run")
        + ". The worker starts it again on the next call");
  }

  /**
   * A stdio server that exits is marked dead at once (one log line), so the next call starts it
   * again; {@code generation} keeps an old process's exit from marking its successor dead.
   */
  private void watchExit(IsolatedStdioTransport t, int generation) {
    t.exited().thenAcceptAsync(status -> {
      if (!closed && alive && starts.get() == generation) {
        alive = false;
        exits.report(t, status, "");
      }
    });
  }

  /** A call's end when the server's process exited before it answered; the message is the model's. */
  private static final class ExitedDuringCall extends IllegalStateException {
    final int status;

    ExitedDuringCall(int status) {
      super("the server's process exited with status " + status + " during the call (its stderr is in the worker's"
          + " log)");
      this.status = status;
    }
  }

  /** Lists every page of the server's tools, within the start's {@code deadline}, failing at once if the server exits. */
  private McpToolList list(McpAsyncClient c, IsolatedStdioTransport process, long deadline) {
    List<McpSchema.Tool> all = new ArrayList<>();
    String cursor = null;
    do {
      McpSchema.ListToolsResult page = within(orExit(c.listTools(cursor), process, "while its tools were listed"),
          deadline, "list its tools").block();
      all.addAll(page.tools());
      cursor = page.nextCursor();
    } while (cursor != null);
    return checks.check(spec.name(), all);
  }

  /**
   * {@code now}, after one log line for each tool it leaves out that the previous listing did not
   * (a restart or a change notification lists the same bad tool again: it is logged once).
   */
  private McpToolList leaveOutQuietly(McpToolList now) {
    McpToolList before = tools;
    now.leftOut().stream().filter(l -> !before.leftOut().contains(l)).forEach(l -> LOG.warn(
        "mcp server {} ({}): its tool '{}' is left out, not offered to any agent: {}", spec.name(), spec.describe(),
        l.tool(), l.problem()));
    return now;
  }

  private void toolsChanged(List<McpSchema.Tool> listed) {
    McpToolList now = leaveOutQuietly(checks.check(spec.name(), listed));
    if (!now.hash().equals(tools.hash())) {
      LOG.info("mcp server {} changed its tools: {} tools, hash {} (was {})", spec.name(), now.tools().size(),
          now.hash(), tools.hash());
    }
    tools = now;
    onToolsChanged.accept(now);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> arguments(JsonNode args) {
    if (args == null || args.isNull() || args.isMissingNode()) {
      return Map.of();
    }
    return Json.convert(args, Map.class);
  }

  private void markDead(McpAsyncClient failed) {
    synchronized (lock) {
      if (client == failed) {
        alive = false;
        closeClient();
      }
    }
  }

  private void closeClient() {
    if (client != null) {
      closeQuietly(client);
      client = null;
      transport = null;
      stdio = null;
    }
  }

  private static void closeQuietly(McpAsyncClient c) {
    try {
      c.close();
    } catch (RuntimeException ignored) {
      // a dead server's transport may fail to close; its process is gone either way
    }
  }

  /** What happened, one line, bounded, naming an HTTP server's URL: no stack, no environment, no class name. */
  private String reason(Throwable t) {
    return McpFailureText.of(t, spec);
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      alive = false;
      closeClient();
    }
  }
}
