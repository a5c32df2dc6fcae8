package cp.workflows;

import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.FailureCode;
import cp.model.TurnInput;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WoCost;
import cp.model.WorkOrderIds;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one accepted turn for the session: its child TurnWorkflow ({@code SES-…/turn-0001}),
 * under the agent's turn deadline, degrading when the child fails. Deterministic workflow code;
 * the session counts what it returns.
 */
final class SessionTurnRunner {
  /** A turn's error_code when the agent's turn deadline passed before it had an answer. */
  static final String TURN_DEADLINE_EXCEEDED = FailureCode.TURN_DEADLINE_EXCEEDED.wire();

  private final SessionActivities session;
  private final SessionLifecycle life;
  private final SessionResults results;
  private final Degradation degradation;
  private final boolean round2;
  /** Hears the id of each turn workflow as it starts (the session takes approvals from it alone). */
  private final Consumer<String> onTurnStarted;

  /** Issue 23: the session's tenant, handed to each turn (its calls record it). */
  private final String tenant;

  SessionTurnRunner(SessionActivities session, SessionLifecycle life, SessionResults results, Degradation degradation,
      boolean round2, Consumer<String> onTurnStarted, String tenant) {
    this.tenant = tenant;
    this.session = session;
    this.life = life;
    this.results = results;
    this.degradation = degradation;
    this.round2 = round2;
    this.onTurnStarted = onTurnStarted;
  }

  /** Turn {@code n} with {@code remaining} session tokens: under the deadline from {@link SessionVersions#ROUND2_SESSION} on. */
  TurnResult run(int n, String text, long remaining, Double usdSpent) {
    return round2 ? runWithDeadline(n, text, remaining, usdSpent) : runTurn(n, text, remaining, usdSpent);
  }

  /**
   * Runs the turn (its child workflow and, if that fails, the degraded call) against the agent's
   * turn deadline ({@code budget.turn_timeout_seconds}). When the deadline passes first, the
   * turn's scope is cancelled (the child workflow and whatever activity is in flight get a
   * cancellation request; the session does not wait for them) and the user gets an honest error
   * with what the turn spent, read from its EXCHANGE records.
   */
  private TurnResult runWithDeadline(int n, String text, long remaining, Double usdSpent) {
    long limit = life.profile().turnTimeoutSeconds();
    if (limit <= 0) {
      return runTurn(n, text, remaining, usdSpent);
    }
    List<Promise<TurnResult>> work = new ArrayList<>(1);
    CancellationScope scope = Workflow.newCancellationScope(
        () -> work.add(Async.function(() -> runTurn(n, text, remaining, usdSpent))));
    scope.run();
    Promise<TurnResult> result = work.get(0);
    // A timer of its own, cancelled once the turn is answered: Workflow.await(timeout, ...) would
    // leave it to fire later and wake the session for nothing.
    List<Promise<Void>> timer = new ArrayList<>(1);
    CancellationScope timerScope = Workflow.newCancellationScope(
        () -> timer.add(Workflow.newTimer(Duration.ofSeconds(limit))));
    timerScope.run();
    Workflow.await(() -> result.isCompleted() || timer.get(0).isCompleted());
    if (result.isCompleted()) {
      timerScope.cancel();
      return result.get();
    }
    scope.cancel("the turn's deadline of " + limit + " s passed");
    String childId = WorkOrderIds.turnWorkflow(life.sessionId(), n);
    WoCost spent = session.turnCost(life.sessionId(), childId);
    Workflow.getLogger(SessionTurnRunner.class).warn("session {} turn {}: no answer within the turn deadline of {} s;"
        + " cancelled", life.sessionId(), n, limit);
    return results.costed(n, deadlineMessage(limit), TurnOutcome.ERROR, TURN_DEADLINE_EXCEEDED, spent, null);
  }

  private TurnResult runTurn(int n, String text, long remaining, Double usdSpent) {
    String sessionId = life.sessionId();
    AgentProfile profile = life.profile();
    String childId = WorkOrderIds.turnWorkflow(sessionId, n);
    ChildWorkflowOptions options = ChildWorkflowOptions.newBuilder()
        .setWorkflowId(childId)
        .setTypedSearchAttributes(SearchAttributes.newBuilder()
            .set(CpSearchAttributes.SESSION_ID, sessionId)
            .set(CpSearchAttributes.AGENT_CLASS, life.agentClass())
            .set(CpSearchAttributes.TURN, (long) n)
            .build())
        .build();
    TurnWorkflow child = Workflow.newChildWorkflowStub(TurnWorkflow.class, options);
    onTurnStarted.accept(childId);
    try {
      return child.run(new TurnInput(sessionId, n, text, remaining, profile, usdSpent, tenant));
    } catch (ChildWorkflowFailure f) {
      if (round2 && CancellationScope.current().isCancelRequested()) {
        // The turn's deadline passed and the session has answered; a cancelled turn is not a
        // failed supervisor, so nothing degrades (and nothing more is written or spent).
        throw f;
      }
      return degradation.degrade(n, childId, text, remaining, usdSpent, f);
    }
  }

  private String deadlineMessage(long limit) {
    return "No answer within this turn's deadline of " + Durations.words(limit) + " (agent " + life.agentClass()
        + " budget.turn_timeout_seconds = " + limit + "): the model provider or a tool did not finish in time, and"
        + " the turn was cancelled. What it spent is counted. Try again; if the provider is slow rather than down,"
        + " an operator can raise budget.turn_timeout_seconds.";
  }
}
