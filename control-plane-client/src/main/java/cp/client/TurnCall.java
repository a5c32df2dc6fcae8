package cp.client;

import cp.model.ClientDefaults;
import cp.model.PendingApproval;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.workflows.SessionWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One turn: the Update {@code turn} with one update id (so a retry after the session continued as
 * new is not run twice), and the wait for its result, however long. While it waits it watches the
 * session (gone from the service, or the service unreachable for longer than {@code
 * serviceLostAfter}) and tells the caller's {@link TurnListener} the turn's steps and approvals.
 *
 * <p>The turn path itself makes no call that buys nothing: the Update is sent at once, and the
 * waiting thread looks at anything else only while the turn takes longer than a poll interval.
 * Thread-safe; the waits run on the client's own executor.
 */
final class TurnCall {
  /** How often a turn is re-sent (same update id) when the session's run changes under it. */
  static final int RUN_CHANGE_RETRIES = 5;

  private final WorkflowClient client;
  private final ClientFailures failures;
  private final TurnProgress progress;
  private final Function<String, java.util.List<PendingApproval>> pendingApprovals;
  private final Predicate<String> isRunning;
  private final Executor waiters;
  private final Duration serviceLostAfter;
  private final Duration watchInterval;
  private final Duration progressPollInterval;
  private final TurnEvents events;

  TurnCall(WorkflowClient client, ClientFailures failures, TurnProgress progress,
      Function<String, java.util.List<PendingApproval>> pendingApprovals, Predicate<String> isRunning,
      Executor waiters, Duration serviceLostAfter, Duration watchInterval, Duration progressPollInterval,
      TurnEvents events) {
    this.events = events;
    this.client = client;
    this.failures = failures;
    this.progress = progress;
    this.pendingApprovals = pendingApprovals;
    this.isRunning = isRunning;
    this.waiters = waiters;
    this.serviceLostAfter = serviceLostAfter;
    this.watchInterval = watchInterval;
    this.progressPollInterval = progressPollInterval;
  }

  /** Runs the turn; the text has been checked. See {@link ControlPlaneClient#turn(String, String, TurnListener)}. */
  TurnResult run(String sessionId, String text, TurnListener listener) {
    TurnProgress.Reporter reporter = listener != null && listener.wantsProgress()
        ? progress.new Reporter(sessionId, listener::onProgress) : null;
    TurnEvents.Follower follower = listener != null && listener.wantsEvents()
        ? events.new Follower(sessionId, listener::onEvent) : null;
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
      }, waiters);
      try {
        TurnResult r = await(sessionId, call, accepted, reporter, follower, listener);
        if (follower != null && listener.wantsEventsAfterResult()) {
          follower.finish(r.turn());
        }
        return r;
      } catch (WorkflowUpdateException e) {
        throw failures.updateFailed(sessionId, e);
      } catch (WorkflowNotFoundException e) {
        if (accepted.get()) {
          throw failures.lost(sessionId);
        }
        if (attempt < RUN_CHANGE_RETRIES && isRunning.test(sessionId)) {
          continue;
        }
        throw failures.notFoundOrEnded(sessionId);
      } catch (WorkflowException | StatusRuntimeException e) {
        if (ClientFailures.hasStatus(e, Status.Code.NOT_FOUND)) {
          throw accepted.get() ? failures.lost(sessionId) : failures.notFoundOrEnded(sessionId);
        }
        Optional<String> gone = ClientFailures.serviceGone(e);
        if (gone.isPresent()) {
          throw failures.serviceLost(sessionId, gone.get());
        }
        throw ClientFailures.unavailable("turn on " + sessionId + " failed", e, sessionId);
      }
    }
  }

  /**
   * Waits for {@code call}, looking at the session every {@code watchInterval} (and at the turn's
   * progress every {@code progressPollInterval}, when asked to); rethrows its failure as is.
   */
  private TurnResult await(String sessionId, CompletableFuture<TurnResult> call, AtomicBoolean accepted,
      TurnProgress.Reporter reporter, TurnEvents.Follower follower, TurnListener listener) {
    SessionWatch watch = new SessionWatch(client, sessionId, System::nanoTime);
    Set<String> toldApprovals = new HashSet<>();
    Duration poll = follower != null ? ClientDefaults.EVENT_POLL_INTERVAL
        : reporter == null ? watchInterval : progressPollInterval;
    long nextWatch = System.nanoTime() + watchInterval.toNanos();
    while (true) {
      try {
        TurnResult r = call.get(poll.toMillis(), TimeUnit.MILLISECONDS);
        if (reporter != null) {
          reporter.report(TurnProgress.DONE);
        }
        return r;
      } catch (TimeoutException e) {
        if (follower != null && accepted.get()) {
          follower.poll();
        }
        if (reporter != null || follower != null) {
          // Nothing to show before the session took the turn: no Query ahead of the Update.
          if (accepted.get() && reporter != null) {
            reporter.poll();
          }
          if (System.nanoTime() - nextWatch < 0) {
            continue;
          }
          nextWatch = System.nanoTime() + watchInterval.toNanos();
        }
        if (listener != null && listener.wantsApprovals() && accepted.get()) {
          for (PendingApproval p : pendingApprovals.apply(sessionId)) {
            if (toldApprovals.add(p.approvalId())) {
              listener.onApproval(p);
            }
          }
        }
        SessionWatch.Seen seen = watch.check();
        if (seen == SessionWatch.Seen.GONE && accepted.get()) {
          call.cancel(true);
          throw failures.lost(sessionId);
        }
        if (seen == SessionWatch.Seen.UNREACHABLE && watch.unreachableFor().compareTo(serviceLostAfter) >= 0) {
          call.cancel(true);
          throw failures.serviceLost(sessionId, "unreachable for " + watch.unreachableFor().toSeconds() + " s: "
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
        throw ClientFailures.interrupted("waiting for a turn on " + sessionId, sessionId);
      }
    }
  }
}
