package cp.client;

import cp.model.RootCause;
import cp.model.SessionState;
import cp.model.WorkOrderIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The steps of a session's turns: the per-turn {@code progress} Query ({@code classify},
 * {@code synthesize round 2}, {@code tool read_file}, ... {@code done}), read once or followed
 * until the turn ends. Thread-safe.
 */
final class TurnProgress {
  /** The Query a turn's child workflow answers with its step (client contract, "Query progress"). */
  static final String PROGRESS_QUERY = "progress";
  /** What the progress Query answers once the turn has finished. */
  static final String DONE = "done";

  private final BoundedRpc rpc;
  private final ClientFailures failures;
  private final Function<String, SessionState> state;
  private final Duration serviceLostAfter;
  private final Duration pollInterval;

  TurnProgress(BoundedRpc rpc, ClientFailures failures, Function<String, SessionState> state,
      Duration serviceLostAfter, Duration pollInterval) {
    this.rpc = rpc;
    this.failures = failures;
    this.state = state;
    this.serviceLostAfter = serviceLostAfter;
    this.pollInterval = pollInterval;
  }

  /** See {@link ControlPlaneClient#progress(String)}. */
  Optional<String> running(String sessionId) {
    SessionState s = state.apply(sessionId);
    if (s == null || s.ended()) {
      return Optional.empty();
    }
    Optional<String> step = of(sessionId, s.turns() + 1);
    // Finished between the two reads: that turn is no longer the running one.
    return step.filter(p -> !DONE.equals(p));
  }

  /** See {@link ControlPlaneClient#progress(String, int)}. */
  Optional<String> of(String sessionId, int turn) {
    if (turn < 1) {
      throw new ClientException(ClientException.Kind.REFUSED, "turn numbers start at 1; got " + turn, null,
          sessionId, null);
    }
    try {
      return query(WorkOrderIds.turnWorkflow(sessionId, turn));
    } catch (StatusRuntimeException e) {
      throw new ClientException(ClientException.Kind.UNAVAILABLE, "progress of turn " + turn + " of " + sessionId
          + " unavailable from " + failures.service() + ": " + RootCause.clientMessage(e), e, sessionId, null);
    }
  }

  /** The progress Query on a turn's workflow, one bounded RPC; empty when the workflow does not exist. */
  Optional<String> query(String turnWorkflowId) {
    return rpc.query(turnWorkflowId, PROGRESS_QUERY, String.class);
  }

  /** See {@link ControlPlaneClient#watch(String, Consumer)}. */
  OptionalInt watch(String sessionId, Consumer<String> onStep) {
    SessionState s = state.apply(sessionId);
    if (s == null || s.ended()) {
      return OptionalInt.empty();
    }
    int turn = s.turns() + 1;
    String turnId = WorkOrderIds.turnWorkflow(sessionId, turn);
    String last = null;
    long unreachableSince = -1;
    while (true) {
      try {
        WorkflowExecutionStatus status = rpc.status(turnId);
        Optional<String> step = query(turnId);
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
          throw new ClientException(ClientException.Kind.UNAVAILABLE, "lost " + failures.service()
              + " while watching turn " + turn + " of " + sessionId + " (unreachable for "
              + Duration.ofNanos(now - unreachableSince).toSeconds() + " s: " + RootCause.clientMessage(e) + ")", e,
              sessionId, null);
        }
      }
      try {
        Thread.sleep(pollInterval.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw ClientFailures.interrupted("watching turn " + turn + " of " + sessionId, sessionId);
      }
    }
  }

  /**
   * Reports one turn's steps to a caller while the client waits for it, each new one once; reading
   * them never fails the turn. The turn's number is learnt at the first poll (the session's state),
   * so a turn that finishes within one poll interval costs no extra round trip. Not thread-safe:
   * one waiting thread polls it.
   */
  final class Reporter {
    private final String sessionId;
    private final Consumer<String> onProgress;
    private int turn;
    private String last;

    Reporter(String sessionId, Consumer<String> onProgress) {
      this.sessionId = sessionId;
      this.onProgress = onProgress;
    }

    void poll() {
      try {
        if (turn == 0) {
          SessionState s = state.apply(sessionId);
          if (s == null) {
            return;
          }
          turn = s.turns() + 1;
        }
        query(WorkOrderIds.turnWorkflow(sessionId, turn)).ifPresent(this::report);
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
}
