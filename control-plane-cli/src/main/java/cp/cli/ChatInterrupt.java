package cp.cli;


import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.client.SessionEndedException;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.TurnExchanges;
import cp.model.EventType;
import cp.model.Json;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.WorkOrderIds;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * What {@code cpctl chat} does on Ctrl-C (SIGINT, run as a shutdown hook; SIGTERM and SIGHUP too, each
 * named as itself: {@link ChatSignals}), or when it stops on an
 * error (run by chat itself, the hook removed first: issue 20, an error exit is not a Ctrl-C): end
 * the session as cleanly as it can and say in one line on stderr what became of the session and of
 * a running turn, and where to see it. After an error the line comes only when the session was
 * ended; otherwise the error itself, which cpctl prints, is all there is to say.
 *
 * <ul>
 *   <li>At the prompt: the session is ended through its {@code end} Update (SESSION_END written).
 *   <li>During a turn, on the embedded service: the turn cannot go on (the in-process service
 *       stops with this process), and the session workflow would only end after it. So the
 *       worker is stopped first (nothing more runs or writes for this session), then SESSION_END
 *       is written for the session with reason {@code interrupted} and the unfinished turn's
 *       number, under the session workflow's own idempotency key (so it is never written twice).
 *   <li>During a turn, against a shared service: the turn goes on on the workers; the session is
 *       asked to end, which it does once the turn finishes.
 * </ul>
 */
final class ChatInterrupt implements Runnable {
  /** How long Ctrl-C waits for the service (the end Update, the state Query) before it gives up. */
  static final long WAIT_MS = 3_000;
  /** SESSION_END's end_reason when chat was interrupted during a turn. */
  static final String INTERRUPTED = "interrupted";

  /** Why chat stops: how its line begins, and what SESSION_END's detail names. */
  enum Cause {
    CTRL_C("interrupted (Ctrl-C)", "Ctrl-C in cpctl chat"),
    /** A termination signal: kill's default, a service manager or a container stopping chat. */
    SIGTERM("terminated (SIGTERM)", "SIGTERM to cpctl chat"),
    /** The terminal went away (or kill -HUP). */
    SIGHUP("hung up (SIGHUP)", "SIGHUP to cpctl chat"),
    /** The JVM shut down and no signal was seen (a handler the JVM refused, or an exit elsewhere). */
    SHUTDOWN("stopped (the JVM shut down)", "a shutdown of cpctl chat"),
    ERROR("chat stopped on an error", "an error in cpctl chat");

    final String said;
    final String detail;

    Cause(String said, String detail) {
      this.said = said;
      this.detail = detail;
    }
  }

  private final CliPlane plane;
  private final String temporal;
  /** The session chat talks to now (a new one after the user accepted one); read when Ctrl-C comes. */
  private final Supplier<String> session;
  private String sid;
  private final AtomicBoolean ended;
  private final IntSupplier runningTurn;
  private final PrintStream err;
  private final Cause cause;

  ChatInterrupt(CliPlane plane, String temporal, Supplier<String> session, AtomicBoolean ended, IntSupplier runningTurn,
      PrintStream err, Cause cause) {
    this.plane = plane;
    this.temporal = temporal;
    this.session = session;
    this.ended = ended;
    this.runningTurn = runningTurn;
    this.err = err;
    this.cause = cause;
  }

  @Override
  public void run() {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    sid = session.get();
    int turn = runningTurn.getAsInt();
    String line;
    try {
      line = turn == 0 ? atPrompt() : plane.runtime != null ? duringEmbeddedTurn(turn) : duringSharedTurn(turn);
    } catch (RuntimeException e) {
      if (cause == Cause.ERROR) {
        // The error, printed next, already says why the session cannot be reached or ended.
        return;
      }
      line = "session " + sid + " could not be ended (" + why(e) + "); no SESSION_END was written"
          + (turn == 0 ? "" : "; turn " + turn + " was running") + ". See 'cpctl show " + sid + "'.";
    }
    if (line == null) {
      return;
    }
    err.println("cpctl: " + cause.said + (turn == 0 ? "" : " during turn " + turn) + ": " + line);
    err.flush();
  }

  private String atPrompt() {
    SessionSummary s;
    try {
      s = within(() -> plane.client.end(sid));
    } catch (SessionEndedException e) {
      return "session " + sid + " had already ended (" + e.summary().endReason() + "); no turn was running.";
    }
    return "session " + sid + " ended, SESSION_END written (" + totals(s.turns(), s.tokensUsed(), s.cost())
        + "); no turn was running.";
  }

  private String duringSharedTurn(int turn) {
    try {
      SessionSummary s = within(() -> plane.client.end(sid));
      return "the turn finished on the worker; session " + sid + " ended, SESSION_END written ("
          + totals(s.turns(), s.tokensUsed(), s.cost()) + "). See 'cpctl show " + sid + "'.";
    } catch (RuntimeException e) {
      if (cause == Cause.ERROR) {
        // After an error the service may be what failed: nothing is known to add to the error itself.
        return null;
      }
      return "the turn goes on on the workers at " + temporal + " and session " + sid + " was asked to end once it"
          + " finishes (SESSION_END then); see 'cpctl show " + sid + "'.";
    }
  }

  private String duringEmbeddedTurn(int turn) {
    SessionState state = within(() -> plane.client.state(sid));
    plane.worker.kill();
    LedgerStream hot = plane.runtime.ledgers().hot();
    String key = sid + "/SESSION_END";
    if (hot.idForKey(key).isEmpty()) {
      SessionSummary s = new SessionSummary(sid, state.agentClass(), state.turns(), state.tokensUsed(),
          state.profile().sessionTokenLimit(), state.cost(), INTERRUPTED, state.degradedTurns(), null,
          java.time.Instant.now().toString(), cause.detail + " during turn " + turn);
      ObjectNode meta = (ObjectNode) Json.tree(s);
      meta.put("tokens_remaining", state.tokensRemaining()).put("runs", state.runs())
          .put("interrupted_turn", turn).put("interrupted_turn_workflow_id", WorkOrderIds.turnWorkflow(sid, turn))
          .put("tokens_spent_by_interrupted_turn",
              TurnExchanges.cost(hot, sid, WorkOrderIds.turnWorkflow(sid, turn)).totalTokens())
          .put("session_id", sid).put("tier", "hot");
      hot.write(LedgerEntry.builder(EventType.SESSION_END.wire()).submissionId(sid).decision("ENDED")
          .reason("session ended: " + INTERRUPTED + " (" + cause.detail + " during turn " + turn + ")")
          .metadata(meta).idempotencyKey(key).build());
    }
    return "the turn was stopped unfinished (the in-process Temporal service stops with chat); what it did is in"
        + " the ledgers: 'cpctl show " + sid + "'; session " + sid + " ended, SESSION_END written ("
        + totals(state.turns(), state.tokensUsed(), state.cost()) + " before it).";
  }

  private static String totals(int turns, long tokens, double cost) {
    return String.format(Locale.ROOT, "%d turn(s), %d tokens, $%.4f", turns, tokens, cost);
  }

  /** A call that got no answer in time. */
  static final class NoAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoAnswer(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static String why(RuntimeException e) {
    return e instanceof NoAnswer ? e.getMessage() : Cpctl.innermostMessage(e);
  }

  private static <T> T within(Supplier<T> call) {
    try {
      return CompletableFuture.supplyAsync(call).get(WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new NoAnswer("the Temporal service did not answer within " + WAIT_MS + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
