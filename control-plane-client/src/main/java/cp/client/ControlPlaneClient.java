package cp.client;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.ClientDefaults;
import cp.model.FailureCode;
import cp.model.PendingApproval;
import cp.model.Refusal;
import cp.model.RootCause;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import cp.workflows.CpSearchAttributes;
import cp.workflows.SessionWorkflow;
import cp.workflows.TurnText;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.query.v1.WorkflowQuery;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowResponse;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The small facade a program uses: start a session, send turns, read its state and the running
 * turn's progress, follow a turn, list sessions, end a session. Depends on the API module and
 * the Temporal SDK only.
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
 */
public final class ControlPlaneClient implements AutoCloseable {
  /** Far under Temporal's 2 MB payload error even after JSON escaping; the agent's own limit is smaller. */
  public static final int MAX_MESSAGE_BYTES = 512 * 1024;
  /** How the client's own limit is named in a refusal. */
  static final String CLIENT_LIMIT = "the most a client sends in one message; Temporal refuses payloads over 2 MB";
  /** How often a turn is re-sent (same update id) when the session's run changes under it. */
  static final int RUN_CHANGE_RETRIES = 5;
  /** How often a waiting turn looks at its session on the service. */
  static final Duration WATCH_INTERVAL = Duration.ofSeconds(2);
  /** How long reading a closed session's result (its summary, or its failure) may take: one read of a closed workflow. */
  static final Duration CLOSED_RESULT_WAIT = Duration.ofSeconds(5);
  /** The Query a turn's child workflow answers with its step (client contract, "Query progress"). */
  static final String PROGRESS_QUERY = "progress";
  /** The session's Query (SessionWorkflow#state). */
  static final String STATE_QUERY = "state";
  /** The session workflow's type, as visibility lists it. */
  static final String SESSION_WORKFLOW_TYPE = "SessionWorkflow";
  /** An agent class as the catalog names it (client contract, start input). */
  static final Pattern AGENT_CLASS = cp.model.AgentClassName.PATTERN;
  /** Threads that wait on the service for a turn, so the caller can watch the session meanwhile. */
  private static final ExecutorService WAITERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "cp-turn-wait");
    t.setDaemon(true);
    return t;
  });

  private final WorkflowClient client;
  private final String taskQueue;
  private final List<String> agentClasses;
  private final int continueAsNewAfterTurns;
  private final Duration serviceLostAfter;
  private final Duration progressPollInterval;
  /** The service stubs this client created itself ({@link #connect}) and closes; null when given a WorkflowClient. */
  private final WorkflowServiceStubs ownedStubs;
  private final SecureRandom random = new SecureRandom();

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
    this.client = client;
    this.taskQueue = requireText(taskQueue, "taskQueue");
    this.agentClasses = List.copyOf(agentClasses);
    if (continueAsNewAfterTurns < 0) {
      throw new IllegalArgumentException("continueAsNewAfterTurns must be 0 (the session's default) or more; got "
          + continueAsNewAfterTurns);
    }
    this.continueAsNewAfterTurns = continueAsNewAfterTurns;
    this.serviceLostAfter = requirePositive(serviceLostAfter, "serviceLostAfter");
    this.progressPollInterval = requirePositive(progressPollInterval, "progressPollInterval");
    this.ownedStubs = ownedStubs;
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
    requireText(target, "target");
    requireText(namespace, "namespace");
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

  private static String requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    return value;
  }

  private static Duration requirePositive(Duration value, String name) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration; got " + value);
    }
    return value;
  }

  /** The connection, when {@link #connect} opened it; a WorkflowClient given to the builder stays open. */
  @Override
  public void close() {
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
    String cls = agentClass == null ? "" : agentClass.trim().toUpperCase(Locale.ROOT);
    if (!agentClasses.isEmpty() && !agentClasses.contains(cls)) {
      throw new ClientException(ClientException.Kind.REFUSED, "unknown agent class '" + agentClass + "' (known: "
          + String.join(", ", agentClasses) + ")");
    }
    if (!AGENT_CLASS.matcher(cls).matches()) {
      throw new ClientException(ClientException.Kind.REFUSED, "'" + agentClass + "' is not an agent class: agent"
          + " classes are letters, digits and '_' as the catalog names them, e.g. ADMIN");
    }
    String sessionId = SessionIds.mint(random);
    // No search attributes here: the session sets its own (CpSessionId, CpAgentClass, CpTurn), so
    // a session any client started can be found the same way.
    SessionWorkflow stub = client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(sessionId)
        .setTaskQueue(taskQueue)
        .build());
    try {
      WorkflowClient.start(stub::run, new SessionInput(sessionId, cls, null, continueAsNewAfterTurns));
    } catch (RuntimeException e) {
      throw unavailable("cannot start a session", e, null);
    }
    return sessionId;
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
   * the turn numbered one more than the turns the session had completed when this call began:
   * this turn, unless another client's turn was queued before it. Null: no progress is read.
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
    Progress progress = null;
    if (listener != null && listener.wantsProgress()) {
      progress = new Progress(sessionId, listener::onProgress);
      SessionState before = state(sessionId);
      progress.turn = before == null ? 0 : before.turns() + 1;
    }
    String updateId = UUID.randomUUID().toString();
    for (int attempt = 0; ; attempt++) {
      WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
      AtomicBoolean accepted = new AtomicBoolean();
      CompletableFuture<TurnResult> call = CompletableFuture.supplyAsync(() -> {
        WorkflowUpdateHandle<TurnResult> handle = stub.startUpdate(UpdateOptions.newBuilder(TurnResult.class)
            .setUpdateName(SessionWorkflow.TURN)
            .setUpdateId(updateId)
            .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
            .build(), new TurnRequest(text));
        accepted.set(true);
        return handle.getResult();
      }, WAITERS);
      try {
        return await(sessionId, call, accepted, progress, listener);
      } catch (WorkflowUpdateException e) {
        if (refusedAsEnded(e)) {
          throw endedWhenClosed(sessionId, e);
        }
        throw refusedOrFailed(sessionId, e);
      } catch (WorkflowNotFoundException e) {
        if (accepted.get()) {
          throw lost(sessionId);
        }
        if (attempt < RUN_CHANGE_RETRIES && isRunning(sessionId)) {
          continue;
        }
        throw notFoundOrEnded(sessionId);
      } catch (WorkflowException | StatusRuntimeException e) {
        if (hasStatus(e, Status.Code.NOT_FOUND)) {
          throw accepted.get() ? lost(sessionId) : notFoundOrEnded(sessionId);
        }
        Optional<String> gone = serviceGone(e);
        if (gone.isPresent()) {
          throw serviceLost(sessionId, gone.get());
        }
        throw unavailable("turn on " + sessionId + " failed", e, sessionId);
      }
    }
  }

  /** Reports a turn's steps to a caller, each new one once; reading them never fails the turn. */
  private final class Progress {
    private final String sessionId;
    private final Consumer<String> onProgress;
    private int turn;
    private String last;

    Progress(String sessionId, Consumer<String> onProgress) {
      this.sessionId = sessionId;
      this.onProgress = onProgress;
    }

    void poll() {
      try {
        if (turn == 0) {
          SessionState s = client.newWorkflowStub(SessionWorkflow.class, sessionId).state();
          if (s == null) {
            return;
          }
          turn = s.turns() + 1;
        }
        queryProgress(WorkOrderIds.turnWorkflow(sessionId, turn)).ifPresent(this::report);
      } catch (RuntimeException e) {
        // Progress is for display: the session watch decides whether the service is lost.
      }
    }

    void report(String step) {
      if (step != null && !step.equals(last)) {
        last = step;
        onProgress.accept(step);
      }
    }
  }

  /** Whether a gRPC failure with {@code code} is among {@code e}'s causes. */
  private static boolean hasStatus(Throwable e, Status.Code code) {
    return RootCause.chain(e).anyMatch(t -> t instanceof StatusRuntimeException s && s.getStatus().getCode() == code);
  }

  /**
   * Why the service cannot be reached, when that is what {@code e} says: an unreachable or
   * timed-out call, a refused connection, or a long poll the closing server cancelled.
   */
  static Optional<String> serviceGone(Throwable e) {
    boolean gone = RootCause.chain(e).anyMatch(t -> {
      if (t instanceof StatusRuntimeException s) {
        Status.Code c = s.getStatus().getCode();
        return c == Status.Code.UNAVAILABLE || c == Status.Code.DEADLINE_EXCEEDED || c == Status.Code.CANCELLED;
      }
      return t instanceof java.util.concurrent.CancellationException || t instanceof java.net.ConnectException;
    });
    return gone ? Optional.of(RootCause.innermostMessage(e)) : Optional.empty();
  }

  private ClientException serviceLost(String sessionId, String problem) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "lost " + service()
        + " while waiting for a turn on " + sessionId + " (" + problem + "). The turn may still finish once the"
        + " service is back; the session's ledgers record what it did", null, sessionId, null);
  }

  /**
   * Waits for {@code call}, looking at the session every {@link #WATCH_INTERVAL} (and at the
   * turn's progress every {@code progressPollInterval}, when asked to); rethrows its failure as is.
   */
  private TurnResult await(String sessionId, CompletableFuture<TurnResult> call, AtomicBoolean accepted,
      Progress progress, TurnListener listener) {
    SessionWatch watch = new SessionWatch(client, sessionId, System::nanoTime);
    java.util.Set<String> toldApprovals = new java.util.HashSet<>();
    Duration poll = progress == null ? WATCH_INTERVAL : progressPollInterval;
    long nextWatch = System.nanoTime() + WATCH_INTERVAL.toNanos();
    while (true) {
      try {
        TurnResult r = call.get(poll.toMillis(), TimeUnit.MILLISECONDS);
        if (progress != null) {
          progress.report("done");
        }
        return r;
      } catch (TimeoutException e) {
        if (progress != null) {
          progress.poll();
          if (System.nanoTime() - nextWatch < 0) {
            continue;
          }
          nextWatch = System.nanoTime() + WATCH_INTERVAL.toNanos();
        }
        if (listener != null && listener.wantsApprovals()) {
          for (PendingApproval p : pendingApprovalsOrNone(sessionId)) {
            if (toldApprovals.add(p.approvalId())) {
              listener.onApproval(p);
            }
          }
        }
        SessionWatch.Seen seen = watch.check();
        if (seen == SessionWatch.Seen.GONE && accepted.get()) {
          call.cancel(true);
          throw lost(sessionId);
        }
        if (seen == SessionWatch.Seen.UNREACHABLE && watch.unreachableFor().compareTo(serviceLostAfter) >= 0) {
          call.cancel(true);
          throw serviceLost(sessionId, "unreachable for " + watch.unreachableFor().toSeconds() + " s: "
              + watch.problem());
        }
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        call.cancel(true);
        throw interrupted("waiting for a turn on " + sessionId, sessionId);
      }
    }
  }

  private static ClientException interrupted(String what, String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "interrupted while " + what, null, sessionId, null);
  }

  // ------------------------------------------------------------------ approvals (issue 15)

  /** The tool calls of the session's running turn that wait for a person's decision (the Query {@code state}). */
  public List<PendingApproval> pendingApprovals(String sessionId) {
    SessionState st = state(sessionId);
    return st == null ? List.of() : st.pendingApprovals();
  }

  /**
   * As {@link #pendingApprovals}, asked while a turn waits: one Query bounded like the session
   * watch's looks, so an unreachable service never holds up the watch; empty when the session
   * cannot be asked (ended, gone, unreachable).
   */
  private List<PendingApproval> pendingApprovalsOrNone(String sessionId) {
    try {
      return boundedQuery(sessionId, STATE_QUERY, SessionState.class).map(SessionState::pendingApprovals)
          .orElse(List.of());
    } catch (RuntimeException e) {
      return List.of();
    }
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
    WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
    String updateId = "approve/" + decision.approvalId() + "/" + UUID.randomUUID();
    CompletableFuture<ApprovalResult> call = CompletableFuture.supplyAsync(() -> stub.startUpdate(
        UpdateOptions.newBuilder(ApprovalResult.class).setUpdateName(SessionWorkflow.APPROVE)
            .setUpdateId(updateId).setWaitForStage(WorkflowUpdateStage.ACCEPTED).build(), decision).getResult(),
        WAITERS);
    long noticeAt = System.nanoTime() + ClientDefaults.APPROVE_NOTICE_AFTER.toNanos();
    boolean told = false;
    while (true) {
      try {
        return call.get(WATCH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (!told && stillWaiting != null && System.nanoTime() >= noticeAt) {
          told = true;
          stillWaiting.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        call.cancel(true);
        throw interrupted("deciding " + decision.approvalId() + " (it may still apply: the session's pending"
            + " approvals show whether it is still pending)", sessionId);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof WorkflowUpdateException u) {
          String msg = RootCause.clientMessage(u);
          throw new ClientException(ClientException.Kind.REFUSED, msg == null ? "approve refused on " + sessionId : msg,
              u, sessionId, null);
        }
        if (c instanceof WorkflowNotFoundException || hasStatus(c, Status.Code.NOT_FOUND)) {
          throw notFoundOrEnded(sessionId);
        }
        throw unavailable("approve on " + sessionId + " failed", c, sessionId);
      }
    }
  }

  /**
   * The step the session's running turn is in ({@code classify}, {@code synthesize round 2},
   * {@code tool read_file}, ...): the per-turn {@code progress} Query of the turn numbered one
   * more than the turns the session has completed. Empty when no turn is running (none sent,
   * or the last one finished) or the session has not loaded its agent yet.
   */
  public Optional<String> progress(String sessionId) {
    SessionState s = state(sessionId);
    if (s == null || s.ended()) {
      return Optional.empty();
    }
    Optional<String> step = progress(sessionId, s.turns() + 1);
    // Finished between the two reads: that turn is no longer the running one.
    return step.filter(p -> !"done".equals(p));
  }

  /**
   * The step turn {@code turn} of the session is in, or was in when it finished ({@code done}):
   * the {@code progress} Query on its workflow {@code <session_id>/turn-<nnnn>}. Empty when that
   * turn's workflow does not exist (not started yet, refused, or past the namespace's retention).
   */
  public Optional<String> progress(String sessionId, int turn) {
    checkSessionId(sessionId);
    if (turn < 1) {
      throw new ClientException(ClientException.Kind.REFUSED, "turn numbers start at 1; got " + turn, null,
          sessionId, null);
    }
    try {
      return queryProgress(WorkOrderIds.turnWorkflow(sessionId, turn));
    } catch (StatusRuntimeException e) {
      throw new ClientException(ClientException.Kind.UNAVAILABLE, "progress of turn " + turn + " of " + sessionId
          + " unavailable from " + service() + ": " + RootCause.clientMessage(e), e, sessionId, null);
    }
  }

  /**
   * The {@code progress} Query on a turn's workflow, in one RPC bounded by
   * {@link SessionWatch#RPC_TIMEOUT} (the SDK's stubs would retry an unreachable service for a
   * minute); empty when the workflow does not exist.
   */
  private Optional<String> queryProgress(String turnWorkflowId) {
    return boundedQuery(turnWorkflowId, PROGRESS_QUERY, String.class);
  }

  /**
   * One Query with a deadline of {@link SessionWatch#RPC_TIMEOUT} (the SDK's stubs would retry an
   * unreachable service for about a minute): empty when the workflow does not exist or answered
   * nothing; a StatusRuntimeException when the service could not answer in time.
   */
  private <T> Optional<T> boundedQuery(String workflowId, String queryType, Class<T> type) {
    QueryWorkflowResponse r;
    try {
      r = client.getWorkflowServiceStubs().blockingStub()
          .withDeadlineAfter(SessionWatch.RPC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .queryWorkflow(QueryWorkflowRequest.newBuilder()
              .setNamespace(client.getOptions().getNamespace())
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
              .setQuery(WorkflowQuery.newBuilder().setQueryType(queryType))
              .build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
    if (!r.hasQueryResult()) {
      return Optional.empty();
    }
    return Optional.ofNullable(client.getOptions().getDataConverter()
        .fromPayloads(0, Optional.of(r.getQueryResult()), type, type));
  }

  /**
   * Follows the session's running turn: calls {@code onStep} (on this thread) with each new step
   * until that turn's workflow closes, the last step being {@code done}, and returns the turn's
   * number. Returns empty at once when no turn is running (a turn sent but not yet begun
   * included) or the session has ended. Gives up, as a waiting turn does, when the service stays
   * unreachable for longer than {@code serviceLostAfter}.
   */
  public OptionalInt watch(String sessionId, Consumer<String> onStep) {
    SessionState s = state(sessionId);
    if (s == null || s.ended()) {
      return OptionalInt.empty();
    }
    int turn = s.turns() + 1;
    String turnId = WorkOrderIds.turnWorkflow(sessionId, turn);
    String last = null;
    long unreachableSince = -1;
    while (true) {
      try {
        WorkflowExecutionStatus status = client.getWorkflowServiceStubs().blockingStub()
            .withDeadlineAfter(SessionWatch.RPC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(turnId))
                .build())
            .getWorkflowExecutionInfo().getStatus();
        Optional<String> step = queryProgress(turnId);
        unreachableSince = -1;
        if (step.isPresent() && !step.get().equals(last)) {
          last = step.get();
          onStep.accept(last);
        }
        if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
          return OptionalInt.of(turn);
        }
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
          return last == null ? OptionalInt.empty() : OptionalInt.of(turn);
        }
        long now = System.nanoTime();
        if (unreachableSince < 0) {
          unreachableSince = now;
        } else if (Duration.ofNanos(now - unreachableSince).compareTo(serviceLostAfter) >= 0) {
          throw new ClientException(ClientException.Kind.UNAVAILABLE, "lost " + service() + " while watching turn "
              + turn + " of " + sessionId + " (unreachable for " + Duration.ofNanos(now - unreachableSince).toSeconds()
              + " s: " + RootCause.clientMessage(e) + ")", e, sessionId, null);
        }
      }
      try {
        Thread.sleep(progressPollInterval.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted("watching turn " + turn + " of " + sessionId, sessionId);
      }
    }
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
    if (limit < 1) {
      throw new ClientException(ClientException.Kind.REFUSED, "list limit must be 1 or more; got " + limit);
    }
    String query = "WorkflowType='" + SESSION_WORKFLOW_TYPE + "'"
        + (filter == null || filter.isBlank() ? "" : " AND (" + filter + ")");
    try {
      return client.listExecutions(query).limit(limit).map(ControlPlaneClient::listing).toList();
    } catch (RuntimeException e) {
      if (hasStatus(e, Status.Code.UNIMPLEMENTED)) {
        throw new ClientException(ClientException.Kind.UNSUPPORTED, "cannot list sessions: " + service()
            + " has no visibility queries (ListWorkflowExecutions is not implemented there, as on the Temporal"
            + " SDK's in-process test service); a Temporal server lists them", e);
      }
      if (hasStatus(e, Status.Code.INVALID_ARGUMENT)) {
        throw new ClientException(ClientException.Kind.REFUSED, "the list filter '" + filter + "' is not a"
            + " visibility query the service accepts: " + RootCause.clientMessage(e), e);
      }
      throw unavailable("cannot list sessions", e, null);
    }
  }

  private static SessionListing listing(WorkflowExecutionMetadata m) {
    var sa = m.getTypedSearchAttributes();
    return new SessionListing(m.getExecution().getWorkflowId(), sa.get(CpSearchAttributes.AGENT_CLASS),
        m.getStatus().name().replace("WORKFLOW_EXECUTION_STATUS_", ""), sa.get(CpSearchAttributes.TURN),
        m.getStartTime(), m.getCloseTime());
  }

  /** The service, for messages: "the Temporal service at host:port" or "the in-process Temporal service". */
  private String service() {
    String t = client.getWorkflowServiceStubs().getOptions().getTarget();
    return t == null ? "the in-process Temporal service" : "the Temporal service at " + t;
  }

  /** Ends a session: SESSION_END is written and the summary returned. */
  public SessionSummary end(String sessionId) {
    checkSessionId(sessionId);
    try {
      return client.newWorkflowStub(SessionWorkflow.class, sessionId).end();
    } catch (WorkflowUpdateException e) {
      if (refusedAsEnded(e)) {
        throw endedWhenClosed(sessionId, e);
      }
      throw refusedOrFailed(sessionId, e);
    } catch (WorkflowNotFoundException e) {
      throw notFoundOrEnded(sessionId);
    } catch (WorkflowException | StatusRuntimeException e) {
      if (hasStatus(e, Status.Code.NOT_FOUND)) {
        throw notFoundOrEnded(sessionId);
      }
      throw unavailable("end of " + sessionId + " failed", e, sessionId);
    }
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
    try {
      SessionState s = client.newWorkflowStub(SessionWorkflow.class, sessionId).state();
      if (s == null) {
        Optional<Failed> failed = failed(sessionId);
        if (failed.isPresent()) {
          throw stopped(sessionId, failed.get(), null);
        }
      }
      return s;
    } catch (WorkflowNotFoundException e) {
      throw notFoundOrEnded(sessionId);
    } catch (WorkflowException | StatusRuntimeException e) {
      if (hasStatus(e, Status.Code.NOT_FOUND)) {
        throw notFoundOrEnded(sessionId);
      }
      throw unavailable("state of " + sessionId + " unavailable", e, sessionId);
    }
  }

  /** Why the session's workflow failed, when its last run closed as failed: the innermost failure's message. */
  Optional<String> failure(String sessionId) {
    return failed(sessionId).map(f -> f.message);
  }

  /** A failed session's failure: the innermost application failure's type (or null), message and refusal record (or null). */
  private record Failed(String type, String message, Refusal refusal) {}

  private Optional<Failed> failed(String sessionId) {
    try {
      WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
      if (stub.describe().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED) {
        return Optional.empty();
      }
      stub.getResult(CLOSED_RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS, SessionSummary.class);
      return Optional.empty();
    } catch (WorkflowFailedException e) {
      String msg = RootCause.clientMessage(e);
      return msg == null ? Optional.empty()
          : Optional.of(new Failed(RootCause.applicationType(e).orElse(null), msg, refusalOf(e)));
    } catch (RuntimeException | TimeoutException e) {
      return Optional.empty();
    }
  }

  /**
   * A failed session, said as what happened: a start its workflow refused (issue 12: the input
   * named the wrong agent class, say) "could not start"; any other failure "has stopped".
   */
  private ClientException stopped(String sessionId, Failed f, Throwable cause) {
    if (Refusal.START_REFUSED.equals(f.type)) {
      return new ClientException(ClientException.Kind.REFUSED, "session " + sessionId + " could not start: "
          + f.message, cause, sessionId, f.refusal);
    }
    return new ClientException(ClientException.Kind.UNAVAILABLE, "session " + sessionId + " has stopped: "
        + f.message, cause, sessionId, null);
  }

  /** details[0] of the innermost refusal ({@code turn_refused} / {@code start_refused}) in {@code e}, or null. */
  static Refusal refusalOf(Throwable e) {
    ApplicationFailure af = RootCause.innermost(e, ApplicationFailure.class).orElse(null);
    if (af == null || !(Refusal.TURN_REFUSED.equals(af.getType()) || Refusal.START_REFUSED.equals(af.getType()))) {
      return null;
    }
    try {
      return af.getDetails().get(0, Refusal.class, Refusal.class);
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  /**
   * Whether an Update was refused because the session has ended or is ending: a {@code turn_refused}
   * whose code is {@code session_ended} (before issue 12, the failure type {@code session_ended}).
   */
  static boolean refusedAsEnded(Throwable e) {
    ApplicationFailure af = RootCause.innermost(e, ApplicationFailure.class).orElse(null);
    if (af == null) {
      return false;
    }
    if (FailureCode.SESSION_ENDED.is(af.getType())) {
      return true;
    }
    if (!Refusal.TURN_REFUSED.equals(af.getType())) {
      return false;
    }
    try {
      Refusal r = af.getDetails().get(0, Refusal.class, Refusal.class);
      return r != null && FailureCode.SESSION_ENDED.is(r.code());
    } catch (RuntimeException unreadable) {
      return false;
    }
  }

  /** Whether the session's workflow is open (a run may be between continue-as-new runs). */
  public boolean isRunning(String sessionId) {
    try {
      var d = client.newUntypedWorkflowStub(sessionId).describe();
      return d.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
          || d.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void checkSessionId(String sessionId) {
    if (sessionId == null || !WorkOrderIds.SESSION_ID.matcher(sessionId).matches()) {
      throw new ClientException(ClientException.Kind.REFUSED, "'" + sessionId
          + "' is not a session id (expected SES- and 8 hex digits, e.g. SES-1a2b3c4d)");
    }
  }

  /**
   * Why a session takes no turn: it ended (its workflow completed: the summary says when and why),
   * its workflow was closed otherwise (terminated, failed, timed out, cancelled), or the service
   * does not know it (never started, or a restarted service forgot it).
   */
  private ClientException notFoundOrEnded(String sessionId) {
    WorkflowExecutionStatus status;
    java.time.Instant closedAt;
    WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
    try {
      var d = stub.describe();
      status = d.getStatus();
      closedAt = d.getCloseTime();
    } catch (RuntimeException e) {
      return notFound(sessionId);
    }
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
      try {
        SessionSummary s = stub.getResult(CLOSED_RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS, SessionSummary.class);
        if (s.endedAt() == null && closedAt != null) {
          s = new SessionSummary(s.sessionId(), s.agentClass(), s.turns(), s.tokensUsed(), s.tokenLimit(), s.cost(),
              s.endReason(), s.degradedTurns(), s.endNotRecorded(), closedAt.toString(), s.endDetail());
        }
        return new SessionEndedException(s);
      } catch (RuntimeException | TimeoutException e) {
        // Fall through: say what the description says.
      }
    }
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        || status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW
        || status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED) {
      // A failed session's own failure names its cause (notFound reads it).
      return notFound(sessionId);
    }
    String how = status.name().replace("WORKFLOW_EXECUTION_STATUS_", "").toLowerCase(Locale.ROOT).replace('_', ' ');
    return new ClientException(ClientException.Kind.NOT_FOUND, "session " + sessionId + " is closed on " + service()
        + ": its workflow was " + how + (closedAt == null ? "" : " at " + closedAt) + ", so it takes no more turns"
        + " (its ledgers keep the record); start a new session", null, sessionId, null);
  }

  /**
   * Not found on the service, or a session that is there but failed (its SESSION_START could not
   * be written, say): then its own failure, which names the cause (a ledger and the command that
   * repairs it), instead of the guess that the service was restarted.
   */
  private ClientException notFound(String sessionId) {
    Optional<Failed> failed = failed(sessionId);
    if (failed.isPresent()) {
      return stopped(sessionId, failed.get(), null);
    }
    return new ClientException(ClientException.Kind.NOT_FOUND, "session " + sessionId
        + " not found or already ended on " + service() + " (a restarted service forgets"
        + " running sessions; their ledgers keep the record); start a new session", null, sessionId, null);
  }

  /** The session vanished from the service while one of its turns ran: the service lost its state. */
  private ClientException lost(String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "session " + sessionId
        + " vanished from " + service() + " while its turn was running: the service was"
        + " restarted or lost its state (a development server keeps sessions in memory only). What the turn did is"
        + " in the session's ledgers; start a new session", null, sessionId, null);
  }

  /**
   * A turn refused because the session has ended or is writing SESSION_END: waits a moment for the
   * session to close and says when and why it ended; the refusal as it came if it does not.
   */
  private ClientException endedWhenClosed(String sessionId, WorkflowUpdateException refusal) {
    try {
      client.newUntypedWorkflowStub(sessionId).getResult(CLOSED_RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS,
          SessionSummary.class);
      return notFoundOrEnded(sessionId);
    } catch (RuntimeException | TimeoutException e) {
      return refusedOrFailed(sessionId, refusal);
    }
  }

  private ClientException refusedOrFailed(String sessionId, WorkflowUpdateException e) {
    Optional<Failed> failed = failed(sessionId);
    if (failed.isPresent()) {
      // The session itself failed while the Update waited (it could not write SESSION_START, or its
      // start was refused).
      return stopped(sessionId, failed.get(), e);
    }
    String msg = RootCause.clientMessage(e);
    return new ClientException(ClientException.Kind.REFUSED, msg == null ? "turn refused on " + sessionId : msg, e,
        sessionId, refusalOf(e));
  }

  private static ClientException unavailable(String what, Throwable e, String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, what + ": " + RootCause.clientMessage(e), e,
        sessionId, null);
  }
}
