package cp.client;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.ClientDefaults;
import cp.model.PendingApproval;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import cp.workflows.TurnText;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The small facade a program uses: start a session, send turns, read its state and the running
 * turn's progress, follow a turn, list sessions, decide approvals, end a session. Depends on the
 * API module and the Temporal SDK only.
 *
 * <pre>{@code
 * try (ControlPlaneClient cp = ControlPlaneClient.connect("127.0.0.1:7233", "default")) {
 *   String sid = cp.start("ADMIN");
 *   TurnResult r = cp.turn(sid, "what packages are installed?", step -> System.err.println("... " + step));
 *   System.out.println(r.response());
 *   cp.end(sid);
 * }
 * }</pre>
 *
 * <p>A turn is an Update that waits for its result, however long the turn takes and even if the
 * worker is restarted meanwhile. Every turn carries an update id, so a call retried after the
 * session continued as new is not run twice. Messages are checked here first: an empty or
 * oversized message never reaches Temporal (whose payload limit is 2 MB). Every failure is a
 * {@link ClientException} (a {@link SessionEndedException} for an ended session) whose kind,
 * session id and refusal code a program can branch on; messages are for people.
 *
 * <p>The jobs behind this facade each have their own class: a turn and its wait ({@link TurnCall}),
 * its steps ({@link TurnProgress}), approvals ({@link ApprovalCalls}), listings ({@link
 * SessionLister}) and what a failure means ({@link ClientFailures}). The threads a turn waits on
 * belong to this client and end with {@link #close()}: close it when done (try-with-resources).
 */
public final class ControlPlaneClient implements AutoCloseable {
  /** Far under Temporal's 2 MB payload error even after JSON escaping; the agent's own limit is smaller. */
  public static final int MAX_MESSAGE_BYTES = 512 * 1024;
  /** How the client's own limit is named in a refusal. */
  static final String CLIENT_LIMIT = "the most a client sends in one message; Temporal refuses payloads over 2 MB";
  /** How often a waiting turn looks at its session on the service. */
  static final Duration WATCH_INTERVAL = Duration.ofSeconds(2);

  /** The service stubs this client created itself ({@link #connect}) and closes; null when given a WorkflowClient. */
  private final WorkflowServiceStubs ownedStubs;
  /** Threads that wait on the service for a turn or a decision, so the caller can watch meanwhile. */
  private final ExecutorService waiters;
  private final ClientFailures failures;
  private final SessionCalls sessions;
  private final SessionLister lister;
  private final ApprovalCalls approvals;
  private final TurnProgress progress;
  private final TurnCall turns;
  private final TurnEvents events;

  public ControlPlaneClient(WorkflowClient client, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns) {
    this(client, taskQueue, agentClasses, continueAsNewAfterTurns, ClientDefaults.SERVICE_LOST_AFTER);
  }

  /** {@code serviceLostAfter}: how long a waiting turn tolerates an unreachable service. */
  public ControlPlaneClient(WorkflowClient client, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns, Duration serviceLostAfter) {
    this(client, taskQueue, agentClasses, continueAsNewAfterTurns, serviceLostAfter,
        ClientDefaults.PROGRESS_POLL_INTERVAL, null);
  }

  private ControlPlaneClient(WorkflowClient client, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns, Duration serviceLostAfter, Duration progressPollInterval,
      WorkflowServiceStubs ownedStubs) {
    if (client == null) {
      throw new IllegalArgumentException("a ControlPlaneClient needs a WorkflowClient");
    }
    ClientArgs.requireText(taskQueue, "taskQueue");
    if (continueAsNewAfterTurns < 0) {
      throw new IllegalArgumentException("continueAsNewAfterTurns must be 0 (the session's default) or more; got "
          + continueAsNewAfterTurns);
    }
    ClientArgs.requirePositive(serviceLostAfter, "serviceLostAfter");
    ClientArgs.requirePositive(progressPollInterval, "progressPollInterval");
    this.ownedStubs = ownedStubs;
    this.waiters = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "cp-turn-wait");
      t.setDaemon(true);
      return t;
    });
    BoundedRpc rpc = new BoundedRpc(client);
    this.failures = new ClientFailures(client);
    this.sessions = new SessionCalls(client, failures, taskQueue, agentClasses, continueAsNewAfterTurns);
    this.lister = new SessionLister(client, failures);
    this.approvals = new ApprovalCalls(client, rpc, failures, lister, this::state, waiters);
    this.progress = new TurnProgress(rpc, failures, this::state, serviceLostAfter, progressPollInterval);
    this.events = new TurnEvents(rpc, failures, this::state);
    this.turns = new TurnCall(client, failures, progress, approvals::pendingOrNone, this::isRunning, waiters,
        serviceLostAfter, WATCH_INTERVAL, progressPollInterval, events);
  }

  /** A builder for a client of the sessions {@code client} can reach; every setting has a default ({@link ClientDefaults}). */
  public static Builder newBuilder(WorkflowClient client) {
    return new Builder(client);
  }

  /**
   * A client of the Temporal service at {@code target} ({@code host:port}, e.g. {@code 127.0.0.1:7233})
   * in {@code namespace}, with every default; {@link #close()} closes the connection it opens.
   * For TLS, a payload codec or other settings, build a {@code WorkflowClient} yourself and use
   * {@link #newBuilder(WorkflowClient)}.
   */
  public static ControlPlaneClient connect(String target, String namespace) {
    ClientArgs.requireText(target, "target");
    ClientArgs.requireText(namespace, "namespace");
    WorkflowServiceStubs stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
        .setTarget(target).build());
    WorkflowClient wc = WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder().setNamespace(namespace)
        .build());
    return new ControlPlaneClient(wc, ClientDefaults.TASK_QUEUE, List.of(), 0, ClientDefaults.SERVICE_LOST_AFTER,
        ClientDefaults.PROGRESS_POLL_INTERVAL, stubs);
  }

  /** Settings of a {@link ControlPlaneClient}; each has a default. */
  public static final class Builder {
    private final WorkflowClient client;
    private String taskQueue = ClientDefaults.TASK_QUEUE;
    private List<String> agentClasses = List.of();
    private int continueAsNewAfterTurns;
    private Duration serviceLostAfter = ClientDefaults.SERVICE_LOST_AFTER;
    private Duration progressPollInterval = ClientDefaults.PROGRESS_POLL_INTERVAL;

    private Builder(WorkflowClient client) {
      this.client = client;
    }

    /** The task queue the plane's workers poll ({@code CP_TASK_QUEUE}); default {@link ClientDefaults#TASK_QUEUE}. */
    public Builder taskQueue(String taskQueue) {
      this.taskQueue = taskQueue;
      return this;
    }

    /**
     * The agent classes the plane's catalog has, so a start naming another is refused here,
     * before anything is started. Default: none given; the session refuses an unknown class
     * itself (its workflow fails at once, and the next call on it says so).
     */
    public Builder agentClasses(List<String> agentClasses) {
      this.agentClasses = agentClasses == null ? List.of() : agentClasses;
      return this;
    }

    /** Turns per workflow run before a session continues as new; 0 (default): the session's own default. */
    public Builder continueAsNewAfterTurns(int turns) {
      this.continueAsNewAfterTurns = turns;
      return this;
    }

    /** How long a waiting turn tolerates an unreachable service; default {@link ClientDefaults#SERVICE_LOST_AFTER}. */
    public Builder serviceLostAfter(Duration serviceLostAfter) {
      this.serviceLostAfter = serviceLostAfter;
      return this;
    }

    /** How often progress is read while following a turn; default {@link ClientDefaults#PROGRESS_POLL_INTERVAL}. */
    public Builder progressPollInterval(Duration interval) {
      this.progressPollInterval = interval;
      return this;
    }

    public ControlPlaneClient build() {
      return new ControlPlaneClient(client, taskQueue, agentClasses, continueAsNewAfterTurns, serviceLostAfter,
          progressPollInterval, null);
    }
  }

  /**
   * Ends this client's own threads (a turn or decision still waiting on them is given up) and the
   * connection, when {@link #connect} opened it; a WorkflowClient given to the builder stays open.
   */
  @Override
  public void close() {
    waiters.shutdownNow();
    if (ownedStubs != null) {
      ownedStubs.shutdown();
    }
  }

  /** Same as {@link #startSession}. */
  public String start(String agentClass) {
    return startSession(agentClass);
  }

  /**
   * Starts a session for an agent class (case does not matter: {@code admin} is {@code ADMIN}) and
   * returns its id ({@code SES-} + 8 hex). Refused here when the class is not well-formed, or not
   * among the {@link Builder#agentClasses} given; otherwise the session checks it against the
   * worker's catalog, and a class it does not know makes the next call on the session fail with
   * a {@link ClientException} of kind REFUSED, code {@code unknown_agent_class}.
   */
  public String startSession(String agentClass) {
    return sessions.start(agentClass, null);
  }

  /**
   * As {@link #startSession(String)}, for tenant {@code tenant} (issue 23: whose daily and monthly
   * dollar caps the session's model calls count against; null or blank: {@code default}). Refused
   * here when it is not a tenant id ({@link cp.model.TenantId}).
   */
  public String startSession(String agentClass, String tenant) {
    return sessions.start(agentClass, tenant);
  }

  /**
   * Runs one turn and waits for its result. While it waits it watches the session: if the
   * service loses the session (a restarted dev-server keeps nothing) or stays unreachable for
   * longer than {@code serviceLostAfter}, it gives up with a {@link ClientException} of kind
   * UNAVAILABLE that says so, instead of hanging or reporting a bare "not found".
   */
  public TurnResult turn(String sessionId, String text) {
    return turn(sessionId, text, (TurnListener) null);
  }

  /**
   * {@link #turn(String, String)}, calling {@code onProgress} (on this thread) with each new step
   * of the turn while it runs ({@code classify}, {@code synthesize round 2}, {@code tool
   * list_packages}, ... {@code done}; show them, do not branch on them). The steps are those of
   * the turn numbered one more than the turns the session had completed when the first step was
   * read: this turn, unless another client's turn was queued before it. Null: no progress is read.
   */
  public TurnResult turn(String sessionId, String text, Consumer<String> onProgress) {
    return turn(sessionId, text, onProgress == null ? null : new TurnListener() {
      @Override
      public void onProgress(String step) {
        onProgress.accept(step);
      }
    });
  }

  /**
   * {@link #turn(String, String)}, telling {@code listener} (may be null) what the turn does while
   * it runs: each new step ({@link TurnListener#onProgress}) and, once each, the tool calls that wait
   * for a person's decision ({@link TurnListener#onApproval}; decide them with
   * {@link #approve}). Both are called on this thread.
   */
  public TurnResult turn(String sessionId, String text, TurnListener listener) {
    checkSessionId(sessionId);
    TurnText.problem(text, MAX_MESSAGE_BYTES, CLIENT_LIMIT).ifPresent(p -> {
      throw new ClientException(ClientException.Kind.REFUSED, "message refused: " + p, null, sessionId, null);
    });
    return onOwnThreads(sessionId, () -> turns.run(sessionId, text, listener));
  }

  /** Up to {@link ClientDefaults#LIST_LIMIT} sessions, newest first; see {@link #list(String, int)}. */
  public List<SessionListing> list() {
    return list(null, ClientDefaults.LIST_LIMIT);
  }

  /**
   * Sessions from Temporal's visibility store, newest first, at most {@code limit}; {@code filter}
   * (may be null) is a visibility query ANDed with the session workflow type, e.g.
   * {@code CpAgentClass="ADMIN" AND ExecutionStatus="Running"}. Needs a Temporal server with
   * visibility queries ({@code ListWorkflowExecutions}); the Temporal SDK's in-process test
   * service (what a development server built on it runs) has none, so there this fails at once
   * with a {@link ClientException} of kind UNSUPPORTED; the sessions' ledgers still list them.
   */
  public List<SessionListing> list(String filter, int limit) {
    return lister.list(filter, limit);
  }

  /** Ends a session: SESSION_END is written and the summary returned. */
  public SessionSummary end(String sessionId) {
    checkSessionId(sessionId);
    return sessions.end(sessionId);
  }

  /**
   * The session's state (its Query {@code state}), also after it ended ({@code ended} true, with
   * its {@code end_reason}). Null only in the first moments after the start, until the session has
   * loaded its agent. A session whose start was refused, or that failed, is a ClientException
   * saying why (REFUSED with the refusal's code, or UNAVAILABLE); one the service does not know,
   * NOT_FOUND.
   */
  public SessionState state(String sessionId) {
    checkSessionId(sessionId);
    return sessions.state(sessionId);
  }

  /** Whether the session's workflow is open (a run may be between continue-as-new runs). */
  public boolean isRunning(String sessionId) {
    return sessions.isRunning(sessionId);
  }

  // ------------------------------------------------------------------ approvals (issue 15)

  /** The tool calls of the session's running turn that wait for a person's decision (the Query {@code state}). */
  public List<PendingApproval> pendingApprovals(String sessionId) {
    return approvals.pending(sessionId);
  }

  /**
   * The tool calls waiting for a person's decision in every session open on the service (at most
   * {@link ClientDefaults#LIST_LIMIT} sessions are asked, newest first), whichever host or plane
   * root started them: the service lists its open sessions (through visibility queries, or on a
   * service without them its list of open executions) and each answers its Query {@code state}.
   * A session that cannot answer (ending, unreachable) counts as having none.
   */
  public List<PendingApproval> pendingApprovals() {
    return approvals.pendingEverywhere(ClientDefaults.LIST_LIMIT);
  }

  /**
   * Decides an approval (the Update {@code approve}) and waits for the turn to record it. One
   * update id per call, reused by the SDK's retries, so a retried call is one decision; a second
   * person's decision is refused ({@link ClientException.Kind#REFUSED}, naming the first).
   *
   * @param stillWaiting told once (may be null) when no worker has taken the decision after
   *     {@link ClientDefaults#APPROVE_NOTICE_AFTER}: it stays pending and applies when a worker runs
   */
  public ApprovalResult approve(String sessionId, ApprovalDecision decision, Runnable stillWaiting) {
    checkSessionId(sessionId);
    return onOwnThreads(sessionId, () -> approvals.approve(sessionId, decision, stillWaiting));
  }

  // ------------------------------------------------------------------ progress

  /**
   * The step the session's running turn is in ({@code classify}, {@code synthesize round 2},
   * {@code tool read_file}, ...): the per-turn {@code progress} Query of the turn numbered one
   * more than the turns the session has completed. Empty when no turn is running (none sent,
   * or the last one finished) or the session has not loaded its agent yet.
   */
  public Optional<String> progress(String sessionId) {
    return progress.running(sessionId);
  }

  /**
   * The step turn {@code turn} of the session is in, or was in when it finished ({@code done}):
   * the {@code progress} Query on its workflow {@code <session_id>/turn-<nnnn>}. Empty when that
   * turn's workflow does not exist (not started yet, refused, or past the namespace's retention).
   */
  public Optional<String> progress(String sessionId, int turn) {
    checkSessionId(sessionId);
    return progress.of(sessionId, turn);
  }

  /**
   * Follows the session's running turn: calls {@code onStep} (on this thread) with each new step
   * until that turn's workflow closes, the last step being {@code done}, and returns the turn's
   * number. Returns empty at once when no turn is running (a turn sent but not yet begun
   * included) or the session has ended. Gives up, as a waiting turn does, when the service stays
   * unreachable for longer than {@code serviceLostAfter}.
   */
  public OptionalInt watch(String sessionId, Consumer<String> onStep) {
    return progress.watch(sessionId, onStep);
  }

  /**
   * Issue 24: turn {@code turn}'s events from {@code fromSeq} on (1: all), a page per Query; ask
   * again from {@code next_seq} until {@code done}. Resumable, also after the turn closed.
   */
  public cp.model.TurnEventPage events(String sessionId, int turn, long fromSeq) {
    checkSessionId(sessionId);
    return events.page(sessionId, turn, fromSeq);
  }

  private static void checkSessionId(String sessionId) {
    if (sessionId == null || !WorkOrderIds.SESSION_ID.matcher(sessionId).matches()) {
      throw new ClientException(ClientException.Kind.REFUSED, "'" + sessionId
          + "' is not a session id (expected SES- and 8 hex digits, e.g. SES-1a2b3c4d)");
    }
  }

  /** A call that waits on this client's threads: on a closed client, or ended by its closing, it says so. */
  private <T> T onOwnThreads(String sessionId, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (RejectedExecutionException e) {
      throw closed(sessionId, null);
    } catch (ClientException e) {
      throw waiters.isShutdown() ? closed(sessionId, e) : e;
    }
  }

  private static ClientException closed(String sessionId, Throwable cause) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "this client is closed (its waiting threads ended):"
        + " build a new one", cause, sessionId, null);
  }
}
