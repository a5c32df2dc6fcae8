package cp.eval;

import cp.model.RootCause;
import cp.model.SessionInput;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.workflows.SessionWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.UpdateOptions;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.client.WorkflowFailedException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one case as a real turn (issue 25 §1-2): a session of the case's agent class in tenant
 * {@value EvalScope#TENANT} on the run's task queue, the case's text as its turn, then the session's
 * end. The session id and the turn's update id come from the run, the case and the attempt, so a
 * command run again attaches to a session the Temporal service still has (the turn runs once) and
 * starts the next attempt only when the service lost it (an embedded service that died with its
 * process). The case is recorded as finished before its session is ended.
 */
final class CaseExecution {
  /** How long to look for a session's own failure after its turn failed: a failed session has closed already. */
  static final Duration SESSION_FAILURE_WAIT = Duration.ofSeconds(2);
  /** How often a running case turn is looked at for approvals to decide from the record. */
  static final Duration APPROVAL_POLL = Duration.ofMillis(250);
  private final EvalScope scope;
  private final EvalRunStore store;
  private final WorkflowClient client;
  private final ToolReplay replay;
  private final boolean liveTools;
  private final CaseRuns runs;
  private final String taskQueue;
  private final int continueAsNewAfterTurns;
  private final boolean embedded;
  private final java.util.function.Consumer<String> progress;

  /** What looks at a running case turn's pending approvals at each poll. */
  interface PendingWatch {
    void poll();
  }

  /** {@code progress}: where a live tool's waiting approval is told (once each). */
  CaseExecution(EvalScope scope, EvalRunStore store, EvalPlane plane, boolean liveTools,
      java.util.function.Consumer<String> progress) {
    this.scope = scope;
    this.store = store;
    this.client = plane.client();
    this.replay = plane.replay();
    this.liveTools = liveTools;
    this.runs = new CaseRuns(plane.runtime().ledgers());
    this.taskQueue = plane.runtime().config().worker().taskQueue();
    this.continueAsNewAfterTurns = plane.runtime().config().worker().continueAsNewAfterTurns();
    this.embedded = plane.embedded();
    this.progress = progress;
  }

  /** The case's run: its turn's, or the error that kept the turn from running. Records it as finished. */
  CaseRun run(EvalCase c) {
    int started = store.attempts(c.id());
    int attempt = started == 0 ? 0 : started - 1;
    String sid = scope.sessionId(c.id(), attempt);
    if (started > 0 && !known(sid)) {
      attempt = started; // the service lost the session (an embedded service died): start the case over
      sid = scope.sessionId(c.id(), attempt);
    }
    if (attempt + 1 > started) {
      store.started(c.id(), attempt + 1);
    }
    if (!liveTools) {
      replay.replay(sid, c.recorded() == null ? null : c.recorded().tools());
    }
    long t0 = System.nanoTime();
    CaseRun run;
    try {
      start(sid, c.input().agentClass());
      PendingWatch approvals = liveTools ? new LiveApprovalNotices(client, sid, c.id(), embedded, progress)
          : new RecordedApprovals(client, sid, c.recorded() == null ? null : c.recorded().tools());
      TurnResult r = turn(sid, c.input().text(), scope.turnUpdateId(c.id(), attempt), approvals);
      run = runs.of(c.id(), sid, r, (System.nanoTime() - t0) / 1_000_000);
    } catch (RuntimeException e) {
      if (serviceUnreachable(e)) {
        throw e; // not the case's outcome: not recorded, so the command run again runs the case
      }
      run = CaseRuns.failed(c.id(), sid, whyFailed(sid, e), (System.nanoTime() - t0) / 1_000_000);
    }
    store.finish(run);
    end(sid);
    return run;
  }

  /**
   * Why the case's turn did not run: the session's own failure when it failed (a start the session
   * refused, e.g. an agent class the eval worker does not know), else the turn's.
   */
  private String whyFailed(String sid, RuntimeException turnFailure) {
    try {
      client.newUntypedWorkflowStub(sid).getResult(SESSION_FAILURE_WAIT.toMillis(), TimeUnit.MILLISECONDS,
          cp.model.SessionSummary.class);
    } catch (WorkflowFailedException f) {
      return "session " + sid + " failed: " + RootCause.innermostMessage(f);
    } catch (RuntimeException | TimeoutException other) {
      // still running, or closed normally: the turn's own failure says it
    }
    return RootCause.innermostMessage(turnFailure);
  }

  /** Whether {@code e} says the Temporal service could not be reached (rather than anything about the case). */
  static boolean serviceUnreachable(Throwable e) {
    return RootCause.chain(e).anyMatch(t -> t instanceof StatusRuntimeException s
        && (s.getStatus().getCode() == Status.Code.UNAVAILABLE || s.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED));
  }

  /** Whether the service knows session {@code sid} (running or closed). */
  private boolean known(String sid) {
    try {
      WorkflowExecutionStatus s = client.newUntypedWorkflowStub(sid).describe().getWorkflowExecutionInfo().getStatus();
      return s != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED;
    } catch (RuntimeException e) {
      if (e instanceof io.temporal.client.WorkflowNotFoundException
          || RootCause.innermost(e) instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  private void start(String sid, String agentClass) {
    String cls = agentClass == null ? "" : agentClass.trim().toUpperCase(Locale.ROOT);
    SessionWorkflow stub = client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(sid).setTaskQueue(taskQueue)
        // never a second run of a case's session: a closed one is the case's, its result is read from it
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE).build());
    try {
      WorkflowClient.start(stub::run, new SessionInput(sid, cls, null, continueAsNewAfterTurns)
          .withTenant(EvalScope.TENANT));
    } catch (WorkflowExecutionAlreadyStarted e) {
      // a run started again: the session is there already, its turn is sent with the same update id
    }
  }

  /** Sends the case's turn and waits for it; {@code approvals} looks at what it waits for meanwhile. */
  private TurnResult turn(String sid, String text, String updateId, PendingWatch approvals) {
    WorkflowStub stub = client.newUntypedWorkflowStub(sid);
    CompletableFuture<TurnResult> result = stub.startUpdate(UpdateOptions.newBuilder(TurnResult.class)
        .setUpdateName(SessionWorkflow.TURN).setUpdateId(updateId).setWaitForStage(WorkflowUpdateStage.ACCEPTED)
        .build(), new TurnRequest(text)).getResultAsync();
    while (true) {
      try {
        return result.get(APPROVAL_POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        approvals.poll();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while case session " + sid + " ran its turn", e);
      }
    }
  }

  /** Ends the session (SESSION_END); a session already ended, or lost, is left as it is. */
  private void end(String sid) {
    try {
      client.newWorkflowStub(SessionWorkflow.class, sid).end();
    } catch (RuntimeException e) {
      // ended before (a resumed case), or its start was refused: nothing to end
    }
  }
}
