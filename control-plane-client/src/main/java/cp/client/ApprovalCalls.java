package cp.client;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.ClientDefaults;
import cp.model.PendingApproval;
import cp.model.RootCause;
import cp.model.SessionState;
import cp.workflows.SessionWorkflow;
import io.grpc.Status;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Issue 15's approvals as a client sees them: the tool calls that wait for a person (the sessions'
 * Query {@code state}, the service's authority, wherever the caller runs) and a decision on one
 * (the Update {@code approve}). Thread-safe.
 */
final class ApprovalCalls {
  /** The session's Query (SessionWorkflow#state). */
  static final String STATE_QUERY = "state";
  /** How often a decision that waits for a worker looks whether it was taken. */
  static final Duration DECISION_POLL = Duration.ofSeconds(2);
  /**
   * Sessions asked at once when every open session is asked: a session whose worker is gone takes
   * the whole Query deadline to say nothing, and 200 of those one by one would take minutes.
   */
  static final int PARALLEL_QUERIES = 16;

  private final WorkflowClient client;
  private final BoundedRpc rpc;
  private final ClientFailures failures;
  private final SessionLister lister;
  private final Function<String, SessionState> state;
  private final Executor waiters;

  ApprovalCalls(WorkflowClient client, BoundedRpc rpc, ClientFailures failures, SessionLister lister,
      Function<String, SessionState> state, Executor waiters) {
    this.client = client;
    this.rpc = rpc;
    this.failures = failures;
    this.lister = lister;
    this.state = state;
    this.waiters = waiters;
  }

  /** See {@link ControlPlaneClient#pendingApprovals(String)}. */
  List<PendingApproval> pending(String sessionId) {
    SessionState st = state.apply(sessionId);
    return st == null ? List.of() : st.pendingApprovals();
  }

  /** See {@link ControlPlaneClient#pendingApprovals()}. */
  List<PendingApproval> pendingEverywhere(int sessionLimit) {
    List<String> ids = lister.openSessionIds(sessionLimit);
    List<PendingApproval> out = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += PARALLEL_QUERIES) {
      List<CompletableFuture<List<PendingApproval>>> asked = ids.subList(from, Math.min(ids.size(),
          from + PARALLEL_QUERIES)).stream().map(sid -> CompletableFuture.supplyAsync(() -> pendingOrNone(sid),
              waiters)).toList();
      asked.forEach(a -> out.addAll(a.join()));
    }
    return out;
  }

  /**
   * As {@link #pending}, asked while a turn waits or across sessions: one Query bounded like the
   * session watch's looks, so an unreachable service never holds up the caller; empty when the
   * session cannot be asked (ended, gone, unreachable, not yet started).
   */
  List<PendingApproval> pendingOrNone(String sessionId) {
    try {
      return rpc.query(sessionId, STATE_QUERY, SessionState.class).map(SessionState::pendingApprovals)
          .orElse(List.of());
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** See {@link ControlPlaneClient#approve}. */
  ApprovalResult approve(String sessionId, ApprovalDecision decision, Runnable stillWaiting) {
    WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
    String updateId = "approve/" + decision.approvalId() + "/" + UUID.randomUUID();
    CompletableFuture<ApprovalResult> call = CompletableFuture.supplyAsync(() -> stub.startUpdate(
        UpdateOptions.newBuilder(ApprovalResult.class).setUpdateName(SessionWorkflow.APPROVE)
            .setUpdateId(updateId).setWaitForStage(WorkflowUpdateStage.ACCEPTED).build(), decision).getResult(),
        waiters);
    long noticeAt = System.nanoTime() + ClientDefaults.APPROVE_NOTICE_AFTER.toNanos();
    boolean told = false;
    while (true) {
      try {
        return call.get(DECISION_POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (!told && stillWaiting != null && System.nanoTime() >= noticeAt) {
          told = true;
          stillWaiting.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        call.cancel(true);
        throw ClientFailures.interrupted("deciding " + decision.approvalId() + " (it may still apply: the session's"
            + " pending approvals show whether it is still pending)", sessionId);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof WorkflowUpdateException u) {
          String msg = RootCause.clientMessage(u);
          throw new ClientException(ClientException.Kind.REFUSED, msg == null ? "approve refused on " + sessionId : msg,
              u, sessionId, null);
        }
        if (c instanceof WorkflowNotFoundException || ClientFailures.hasStatus(c, Status.Code.NOT_FOUND)) {
          throw failures.notFoundOrEnded(sessionId);
        }
        throw ClientFailures.unavailable("approve on " + sessionId + " failed", c, sessionId);
      }
    }
  }
}
