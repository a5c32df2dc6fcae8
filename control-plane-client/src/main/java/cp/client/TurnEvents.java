package cp.client;

import cp.model.RootCause;
import cp.model.SessionState;
import cp.model.TurnEvent;
import cp.model.TurnEventPage;
import cp.model.WorkOrderIds;
import cp.workflows.TurnWorkflow;
import io.grpc.StatusRuntimeException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A turn's live events (issue 24): the turn workflow's Query {@code events} from a sequence
 * number, read once ({@link #page}) or followed while the client waits for the turn
 * ({@link Follower}). Thread-safe.
 */
final class TurnEvents {
  /** Reads of a finished turn's last events that may fail (each a bounded RPC) before the follower gives up. */
  static final int FINISH_TRIES = 3;

  private final BoundedRpc rpc;
  private final ClientFailures failures;
  private final Function<String, SessionState> state;

  TurnEvents(BoundedRpc rpc, ClientFailures failures, Function<String, SessionState> state) {
    this.rpc = rpc;
    this.failures = failures;
    this.state = state;
  }

  /** See {@link ControlPlaneClient#events(String, int, long)}. */
  TurnEventPage page(String sessionId, int turn, long fromSeq) {
    if (turn < 1 || fromSeq < 1) {
      throw new ClientException(ClientException.Kind.REFUSED, "turn numbers and sequence numbers start at 1; got turn "
          + turn + ", from " + fromSeq, null, sessionId, null);
    }
    try {
      return rpc.query(WorkOrderIds.turnWorkflow(sessionId, turn), TurnWorkflow.EVENTS, TurnEventPage.class, fromSeq)
          .orElse(new TurnEventPage(java.util.List.of(), fromSeq, false));
    } catch (StatusRuntimeException e) {
      throw new ClientException(ClientException.Kind.UNAVAILABLE, "events of turn " + turn + " of " + sessionId
          + " unavailable from " + failures.service() + ": " + RootCause.clientMessage(e), e, sessionId, null);
    }
  }

  /**
   * Follows one turn's events for a caller waiting on it, each once and in order. The turn's
   * number is learnt at the first poll (the session's state), as {@code TurnProgress.Reporter}
   * does, and checked against the result's. Reading events never fails the turn. Not thread-safe:
   * the waiting thread polls it.
   */
  final class Follower {
    private final String sessionId;
    private final Consumer<TurnEvent> onEvent;
    private int turn;
    private long next = 1;
    private boolean done;

    Follower(String sessionId, Consumer<TurnEvent> onEvent) {
      this.sessionId = sessionId;
      this.onEvent = onEvent;
    }

    /** Reads what is new; false when nothing could be read. */
    boolean poll() {
      try {
        if (turn == 0) {
          SessionState s = state.apply(sessionId);
          if (s == null) {
            return false;
          }
          turn = s.turns() + 1;
        }
        TurnEventPage p = page(sessionId, turn, next);
        for (TurnEvent e : p.events()) {
          if (e.seq() == next) {
            next++;
            done |= TurnEvent.DONE.equals(e.type());
            onEvent.accept(e);
          }
        }
        return true;
      } catch (RuntimeException e) {
        return false; // for display: the session watch decides whether the service is lost
      }
    }

    /**
     * The turn {@code resultTurn} has its result, so its workflow has closed and its events are
     * final: reads them to the end (to {@code done}, or to the last one a turn without events, such
     * as one that failed and degraded, has), with a few tries when the service does not answer.
     */
    void finish(int resultTurn) {
      if (turn != resultTurn) {
        turn = resultTurn; // guessed another client's turn: start over on the right one
        next = 1;
        done = false;
      }
      int failures = 0;
      while (!done && failures < FINISH_TRIES) {
        long before = next;
        if (!poll()) {
          failures++;
          continue;
        }
        if (next == before) {
          return;
        }
      }
    }
  }
}
