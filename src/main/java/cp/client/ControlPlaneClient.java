package cp.client;

import cp.model.Refusal;
import cp.model.FailureCode;
import cp.model.RootCause;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.worker.WorkerSettings;
import cp.workflows.SessionWorkflow;
import cp.workflows.TurnText;
import cp.model.WorkOrderIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import io.temporal.common.SearchAttributes;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * The small facade a program uses: start a session, send turns, read its state, end it.
 *
 * <p>A turn is an Update that waits for its result, however long the turn takes and even if the
 * worker is restarted meanwhile. Every turn carries an update id, so a call retried after the
 * session continued as new is not run twice. Messages are checked here first: an empty or
 * oversized message never reaches Temporal (whose payload limit is 2 MB).
 */
public final class ControlPlaneClient {
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
  private final SecureRandom random = new SecureRandom();

  public ControlPlaneClient(WorkflowClient client, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns) {
    this(client, taskQueue, agentClasses, continueAsNewAfterTurns, WorkerSettings.DEFAULT_SERVICE_LOST_AFTER);
  }

  /** {@code serviceLostAfter}: how long a waiting turn tolerates an unreachable service. */
  public ControlPlaneClient(WorkflowClient client, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns, Duration serviceLostAfter) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.agentClasses = List.copyOf(agentClasses);
    this.continueAsNewAfterTurns = continueAsNewAfterTurns;
    this.serviceLostAfter = serviceLostAfter;
  }

  /** Starts a session for an agent class and returns its id ({@code SES-} + 8 hex). */
  public String startSession(String agentClass) {
    String cls = agentClass == null ? "" : agentClass.trim().toUpperCase(Locale.ROOT);
    if (!agentClasses.contains(cls)) {
      throw new ClientException(ClientException.Kind.REFUSED, "unknown agent class '" + agentClass + "' (known: "
          + String.join(", ", agentClasses) + ")");
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
      throw unavailable("cannot start a session", e);
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
    return turn(sessionId, text, null);
  }

  /**
   * As {@link #turn(String, String)}; {@code onApproval} (may be null) hears of each tool call of
   * the turn that waits for a person's decision (issue 15), once, while the turn waits.
   */
  public TurnResult turn(String sessionId, String text, java.util.function.Consumer<cp.model.PendingApproval> onApproval) {
    checkSessionId(sessionId);
    TurnText.problem(text, MAX_MESSAGE_BYTES, CLIENT_LIMIT).ifPresent(p -> {
      throw new ClientException(ClientException.Kind.REFUSED, "message refused: " + p);
    });
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
        return await(sessionId, call, accepted, onApproval);
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
        throw unavailable("turn on " + sessionId + " failed", e);
      }
    }
  }

  /** Whether a gRPC failure with {@code code} is among {@code e}'s causes. */
  private static boolean hasStatus(Throwable e, Status.Code code) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s && s.getStatus().getCode() == code) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why the service cannot be reached, when that is what {@code e} says: an unreachable or
   * timed-out call, a refused connection, or a long poll the closing server cancelled.
   */
  static Optional<String> serviceGone(Throwable e) {
    Throwable root = e;
    boolean gone = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      root = t;
      if (t instanceof StatusRuntimeException s) {
        Status.Code c = s.getStatus().getCode();
        gone |= c == Status.Code.UNAVAILABLE || c == Status.Code.DEADLINE_EXCEEDED || c == Status.Code.CANCELLED;
      }
      gone |= t instanceof java.util.concurrent.CancellationException || t instanceof java.net.ConnectException;
    }
    if (!gone) {
      return Optional.empty();
    }
    return Optional.of(root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
  }

  private ClientException serviceLost(String sessionId, String problem) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "lost " + service()
        + " while waiting for a turn on " + sessionId + " (" + problem + "). The turn may still finish once the"
        + " service is back: 'cpctl show " + sessionId + "' reads what the ledgers recorded");
  }

  /** Waits for {@code call}, looking at the session every {@link #WATCH_INTERVAL}; rethrows its failure as is. */
  private TurnResult await(String sessionId, CompletableFuture<TurnResult> call, AtomicBoolean accepted,
      java.util.function.Consumer<cp.model.PendingApproval> onApproval) {
    SessionWatch watch = new SessionWatch(client, sessionId, System::nanoTime);
    java.util.Set<String> told = new java.util.HashSet<>();
    while (true) {
      try {
        return call.get(WATCH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (onApproval != null) {
          for (cp.model.PendingApproval p : pendingApprovalsOrNone(sessionId)) {
            if (told.add(p.approvalId())) {
              onApproval.accept(p);
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
        throw new ClientException(ClientException.Kind.UNAVAILABLE, "interrupted while waiting for a turn on "
            + sessionId);
      }
    }
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
      throw unavailable("end of " + sessionId + " failed", e);
    }
  }

  /** The session's state (its Query), or NOT_FOUND. */
  public SessionState state(String sessionId) {
    checkSessionId(sessionId);
    try {
      return client.newWorkflowStub(SessionWorkflow.class, sessionId).state();
    } catch (WorkflowNotFoundException e) {
      throw notFoundOrEnded(sessionId);
    } catch (WorkflowException | StatusRuntimeException e) {
      if (hasStatus(e, Status.Code.NOT_FOUND)) {
        throw notFoundOrEnded(sessionId);
      }
      throw unavailable("state of " + sessionId + " unavailable", e);
    }
  }

  // ------------------------------------------------------------------ approvals (issue 15)

  /** The tool calls of the session's running turn that wait for a person's decision (the Query state). */
  public List<cp.model.PendingApproval> pendingApprovals(String sessionId) {
    SessionState st = state(sessionId);
    return st == null ? List.of() : st.pendingApprovals();
  }

  /** As {@link #pendingApprovals}, empty when the session cannot be asked (ended, gone, unreachable). */
  private List<cp.model.PendingApproval> pendingApprovalsOrNone(String sessionId) {
    try {
      return pendingApprovals(sessionId);
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** How long an approve waits before saying that no worker has taken it yet. */
  static final Duration APPROVE_NOTICE_AFTER = Duration.ofSeconds(5);

  /**
   * Decides an approval (the Update {@code approve}) and waits for the turn to record it. One
   * update id per call, reused by the SDK's retries, so a retried call is one decision; a second
   * person's decision is refused ({@link ClientException.Kind#REFUSED}, naming the first).
   *
   * @param stillWaiting told once (may be null) when no worker has taken the decision after
   *     {@link #APPROVE_NOTICE_AFTER}: it stays pending and applies when a worker runs
   */
  public cp.model.ApprovalResult approve(String sessionId, cp.model.ApprovalDecision decision,
      Runnable stillWaiting) {
    checkSessionId(sessionId);
    WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
    String updateId = "approve/" + decision.approvalId() + "/" + UUID.randomUUID();
    CompletableFuture<cp.model.ApprovalResult> call = CompletableFuture.supplyAsync(() -> stub.startUpdate(
        UpdateOptions.newBuilder(cp.model.ApprovalResult.class).setUpdateName(SessionWorkflow.APPROVE)
            .setUpdateId(updateId).setWaitForStage(WorkflowUpdateStage.ACCEPTED).build(), decision).getResult(),
        WAITERS);
    long noticeAt = System.nanoTime() + APPROVE_NOTICE_AFTER.toNanos();
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
        throw new ClientException(ClientException.Kind.UNAVAILABLE, "interrupted while deciding " + decision.approvalId()
            + "; it may still apply: 'cpctl approvals " + sessionId + "' shows whether it is still pending");
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof WorkflowUpdateException u) {
          String msg = RootCause.clientMessage(u);
          throw new ClientException(ClientException.Kind.REFUSED, msg == null ? "approve refused on " + sessionId : msg,
              u);
        }
        if (c instanceof WorkflowNotFoundException || hasStatus(c, Status.Code.NOT_FOUND)) {
          throw notFoundOrEnded(sessionId);
        }
        throw unavailable("approve on " + sessionId + " failed", c);
      }
    }
  }

  /** Why the session's workflow failed, when its last run closed as failed: the innermost failure's message. */
  Optional<String> failure(String sessionId) {
    return failed(sessionId).map(f -> f.message);
  }

  /** A failed session's failure: the innermost application failure's type (or null) and message. */
  private record Failed(String type, String message) {}

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
      return msg == null ? Optional.empty() : Optional.of(new Failed(RootCause.applicationType(e).orElse(null), msg));
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
          + f.message, cause);
    }
    return new ClientException(ClientException.Kind.UNAVAILABLE, "session " + sessionId + " has stopped: "
        + f.message, cause);
  }

  /**
   * Whether an Update was refused because the session has ended or is ending: a {@code turn_refused}
   * whose code is {@code session_ended} (before issue 12, the failure type {@code session_ended}).
   */
  static boolean refusedAsEnded(Throwable e) {
    ApplicationFailure af = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        af = a;
      }
    }
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
        + " ('cpctl show " + sessionId + "' reads what the ledgers recorded); start a new session with 'cpctl"
        + " session start'");
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
        + " running sessions; their ledgers keep the record); start one with 'cpctl session start'");
  }

  /** The session vanished from the service while one of its turns ran: the service lost its state. */
  private ClientException lost(String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "session " + sessionId
        + " vanished from " + service() + " while its turn was running: the service was"
        + " restarted or lost its state ('cpctl dev-server' keeps sessions in memory only). What the turn did is in"
        + " the ledgers ('cpctl show " + sessionId + "'); start a new session with 'cpctl session start'");
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
    return new ClientException(ClientException.Kind.REFUSED, msg == null ? "turn refused on " + sessionId : msg, e);
  }

  private static ClientException unavailable(String what, Throwable e) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, what + ": " + RootCause.clientMessage(e), e);
  }
}
