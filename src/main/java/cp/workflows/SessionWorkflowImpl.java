package cp.workflows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho1Activities;
import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.CostSummary;
import cp.model.DegradedRequest;
import cp.model.Json;
import cp.model.LlmRoundResult;
import cp.model.SessionEvent;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnInput;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.model.WoErrorCode;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowLock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The session host on Temporal.
 *
 * <p>Turns arrive as Updates and run one at a time (a workflow lock orders them) as child
 * TurnWorkflows. When a child fails the session degrades: it counts what the failed turn spent,
 * records a DEGRADATION in the HOT ledger and makes one direct call under the degraded
 * contract; if that fails too, the user gets an honest "temporarily unavailable". The session
 * owns the token ceiling, the turn limit and the idle and lifetime timeouts, and continues as
 * new at a turn boundary when Temporal suggests it or after a configured number of turns.
 */
public class SessionWorkflowImpl implements SessionWorkflow {
  /** Turns per run before continue-as-new: far below the 2,000 Updates a run may take. */
  public static final int DEFAULT_CONTINUE_AS_NEW_TURNS = 100;
  /** Error type of a refused turn (the Update fails; nothing was written). */
  public static final String TURN_REFUSED = "turn_refused";
  /**
   * Version marker: from version 1 on, a DEGRADATION that cannot be written (after the local
   * activity's retries) no longer fails the turn; the degraded call still runs.
   */
  static final String DEGRADATION_LOG_NON_FATAL = "degradation-log-non-fatal";
  /**
   * Version marker: from version 1 on, a session that expires (idle or lifetime timeout) and
   * cannot write SESSION_END after the local activity's retries waits
   * {@link #SESSION_END_RETRY_INTERVAL} and writes it again, refusing turns meanwhile, instead of
   * failing the workflow with no SESSION_END on record.
   */
  static final String SESSION_END_RETRY = "session-end-retry";
  /**
   * Version marker: from version 1 on, a ledger that refuses an append (error type
   * {@code ledger_unwritable} or {@code ledger_full}) is named to the user: a turn whose degraded
   * call failed on it answers with the ledger's line ({@code outcome=error}, error code
   * {@code ledger_unwritable}) instead of "temporarily unavailable"; and an explicit {@code end}
   * whose SESSION_END the HOT ledger refuses for good ({@code ledger_unwritable}) ends the session
   * anyway, saying in the summary that SESSION_END was not recorded and why, instead of failing
   * the Update and leaving the session open.
   */
  static final String LEDGER_UNWRITABLE = "ledger-unwritable";
  /** How long an expired session waits before it writes SESSION_END again. */
  static final Duration SESSION_END_RETRY_INTERVAL = Duration.ofMinutes(1);
  static final String UNAVAILABLE = "The service is temporarily unavailable: the supervisor failed and the direct"
      + " fallback call failed too. Your message was not lost from the record; please try again in a few minutes.";

  private final SessionActivities session = Workflow.newLocalActivityStub(SessionActivities.class);
  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);
  private final WorkflowLock turnLock = Workflow.newWorkflowLock();

  private String sessionId;
  private String agentClass;
  private AgentProfile profile;
  private int turns;
  private long tokensUsed;
  private double cost;
  private String lastOutcome;
  private boolean ended;
  private String endReason;
  private long startedAtMillis;
  private int runs;
  private int degradedTurns;
  private int canAfterTurns;
  private int turnsThisRun;
  private int pendingTurns;
  private boolean endRequested;
  /** The session expired and is writing SESSION_END (again): it takes no more turns. */
  private boolean expiring;
  /** Why SESSION_END is not on record though the session ended (see {@link #LEDGER_UNWRITABLE}); else null. */
  private String endNotRecorded;
  private long lastActivityAt;
  private int activitySeq;

  @Override
  public SessionSummary run(SessionInput in) {
    sessionId = in.sessionId();
    agentClass = in.agentClass();
    canAfterTurns = in.continueAsNewAfterTurns() > 0 ? in.continueAsNewAfterTurns() : DEFAULT_CONTINUE_AS_NEW_TURNS;
    SessionState carried = in.carried();
    if (carried == null) {
      profile = session.profile(agentClass);
      startedAtMillis = Workflow.currentTimeMillis();
      runs = 1;
      ObjectNode meta = Json.object().put("session_id", sessionId).put("agent_class", agentClass)
          .put("agent_id", profile.agentId()).put("session_token_limit", profile.sessionTokenLimit())
          .put("turn_limit", profile.turnLimit());
      session.record(new SessionEvent("SESSION_START", "SESSION_START", sessionId, "STARTED",
          "session started for " + agentClass, meta));
    } else {
      profile = carried.profile();
      turns = carried.turns();
      tokensUsed = carried.tokensUsed();
      cost = carried.cost();
      lastOutcome = carried.lastOutcome();
      startedAtMillis = carried.startedAtMillis();
      runs = carried.runs() + 1;
      degradedTurns = carried.degradedTurns();
    }
    lastActivityAt = Workflow.currentTimeMillis();

    while (!ended) {
      long waitMillis = millisUntilExpiry();
      if (waitMillis <= 0 && pendingTurns == 0 && !endRequested) {
        turnLock.lock();
        try {
          if (!ended) {
            endOnExpiry(expiryReason());
          }
        } finally {
          turnLock.unlock();
        }
        break;
      }
      int seen = activitySeq;
      if (waitMillis == Long.MAX_VALUE) {
        Workflow.await(() -> ended || activitySeq != seen);
      } else {
        Workflow.await(Duration.ofMillis(Math.max(1, waitMillis)), () -> ended || activitySeq != seen);
      }
      if (!ended && !endRequested && pendingTurns == 0 && continueAsNewDue()) {
        Workflow.await(Workflow::isEveryHandlerFinished);
        Workflow.continueAsNew(new SessionInput(sessionId, agentClass, snapshot(), canAfterTurns));
      }
    }
    Workflow.await(Workflow::isEveryHandlerFinished);
    return summary();
  }

  private boolean continueAsNewDue() {
    return turnsThisRun >= canAfterTurns || Workflow.getInfo().isContinueAsNewSuggested();
  }

  private long millisUntilExpiry() {
    long now = Workflow.currentTimeMillis();
    long wait = Long.MAX_VALUE;
    if (profile.idleTimeoutSeconds() > 0) {
      wait = Math.min(wait, lastActivityAt + profile.idleTimeoutSeconds() * 1000 - now);
    }
    if (profile.timeoutSeconds() > 0) {
      wait = Math.min(wait, lifetimeEndsAt() - now);
    }
    return wait;
  }

  private String expiryReason() {
    long now = Workflow.currentTimeMillis();
    return profile.timeoutSeconds() > 0 && now >= lifetimeEndsAt() ? "session_timeout" : "idle_timeout";
  }

  /** When the session's lifetime (budget.timeout_seconds, if above 0) runs out, in epoch millis. */
  private long lifetimeEndsAt() {
    return startedAtMillis + profile.timeoutSeconds() * 1000;
  }

  /** The session's tokens not yet used, never below 0. */
  private long tokensLeft() {
    return Math.max(0, profile.sessionTokenLimit() - tokensUsed);
  }

  // ------------------------------------------------------------------ turn

  @Override
  public void validateTurn(TurnRequest request) {
    refusal(request, pendingTurns).ifPresent(msg -> {
      throw new IllegalArgumentException(msg);
    });
  }

  /**
   * Why the session cannot take this turn now, or empty. An Update can arrive in the first
   * workflow task, before {@code run} has loaded the profile; then only the checks that need no
   * profile apply here, and the handler checks again once the profile is there.
   */
  private Optional<String> refusal(TurnRequest request, int queued) {
    if (ended || endRequested || expiring) {
      return Optional.of("session " + sessionId + " has ended" + (endReason == null ? "" : " (" + endReason + ")")
          + "; start a new session");
    }
    if (profile == null) {
      return TurnText.problem(request == null ? null : request.text(), 0);
    }
    Optional<String> textProblem = TurnText.problem(request == null ? null : request.text(), profile.maxMessageBytes());
    if (textProblem.isPresent()) {
      return textProblem;
    }
    if (profile.turnLimit() > 0 && turns + queued >= profile.turnLimit()) {
      return Optional.of("session " + sessionId + " has used all " + profile.turnLimit()
          + " turns its agent allows (budget.turn_limit); start a new session");
    }
    if (tokensUsed >= profile.sessionTokenLimit()) {
      return Optional.of("session " + sessionId + " has used its whole token budget (" + tokensUsed + " of "
          + profile.sessionTokenLimit() + "); start a new session");
    }
    if (profile.timeoutSeconds() > 0 && Workflow.currentTimeMillis() >= lifetimeEndsAt()) {
      return Optional.of("session " + sessionId + " has reached its lifetime of " + profile.timeoutSeconds()
          + " s (budget.timeout_seconds); start a new session");
    }
    return Optional.empty();
  }

  @Override
  public TurnResult turn(TurnRequest request) {
    pendingTurns++;
    activitySeq++;
    Workflow.await(() -> profile != null);
    turnLock.lock();
    try {
      Optional<String> refused = refusal(request, pendingTurns - 1);
      if (refused.isPresent()) {
        throw ApplicationFailure.newNonRetryableFailure(refused.get(), TURN_REFUSED);
      }
      int n = turns + 1;
      long remaining = profile.sessionTokenLimit() - tokensUsed;
      TurnResult r = runTurn(n, request.text(), remaining);
      turns = n;
      turnsThisRun++;
      tokensUsed += r.costSummary().totalTokens();
      cost += r.costSummary().cost();
      lastOutcome = r.outcome();
      if (TurnOutcome.DEGRADED.equals(r.outcome())) {
        degradedTurns++;
      }
      Workflow.upsertTypedSearchAttributes(CpSearchAttributes.TURN.valueSet((long) n));
      return r.withCost(r.costSummary().withSession(tokensUsed, tokensLeft()));
    } finally {
      pendingTurns--;
      lastActivityAt = Workflow.currentTimeMillis();
      activitySeq++;
      turnLock.unlock();
    }
  }

  private TurnResult runTurn(int n, String text, long remaining) {
    String childId = WorkOrderIds.turnWorkflow(sessionId, n);
    ChildWorkflowOptions options = ChildWorkflowOptions.newBuilder()
        .setWorkflowId(childId)
        .setTypedSearchAttributes(SearchAttributes.newBuilder()
            .set(CpSearchAttributes.SESSION_ID, sessionId)
            .set(CpSearchAttributes.AGENT_CLASS, agentClass)
            .set(CpSearchAttributes.TURN, (long) n)
            .build())
        .build();
    TurnWorkflow child = Workflow.newChildWorkflowStub(TurnWorkflow.class, options);
    try {
      return child.run(new TurnInput(sessionId, n, text, remaining, profile));
    } catch (ChildWorkflowFailure f) {
      return degrade(n, childId, text, remaining, f);
    }
  }

  private TurnResult degrade(int n, String childId, String text, long remaining, ChildWorkflowFailure f) {
    long spentByChild = session.turnSpend(sessionId, childId);
    String message = WorkOrderRunner.rootMessage(f);
    ObjectNode meta = Json.object().put("session_id", sessionId).put("agent_class", agentClass).put("turn", n)
        .put("turn_workflow_id", childId).put("error_type", WorkOrderRunner.rootType(f)).put("error_message", message)
        .put("tokens_spent_by_failed_turn", spentByChild);
    recordDegradation(n, new SessionEvent("DEGRADATION", "DEGRADATION/" + n, sessionId, "DEGRADED",
        "HO2 failed on turn " + n + ": " + message, meta));
    long left = remaining - spentByChild;
    if (left <= 0) {
      return simpleResult(n, "This session's token budget is used up; start a new session to continue.",
          TurnOutcome.ERROR, "budget_exhausted", spentByChild, 0, 0, List.of());
    }
    try {
      LlmRoundResult r = ho1.degradedCall(new DegradedRequest(sessionId, agentClass, n, text, left));
      if (r.rejected()) {
        return simpleResult(n, UNAVAILABLE, TurnOutcome.ERROR, r.rejectedCode(), spentByChild, 0, 0, List.of());
      }
      return simpleResult(n, r.text(), TurnOutcome.DEGRADED, TurnWorkflowImpl.HO2_FAILED, spentByChild,
          r.inputTokens(), r.outputTokens(), List.of(r.exchangeEntryId()));
    } catch (ActivityFailure e) {
      Optional<String> ledger = ledgerProblem(e).or(() -> ledgerProblem(f));
      if (ledger.isPresent() && Workflow.getVersion(LEDGER_UNWRITABLE, Workflow.DEFAULT_VERSION, 1) >= 1) {
        return simpleResult(n, "This turn could not run: " + ledger.get(), TurnOutcome.ERROR,
            WoErrorCode.LEDGER_UNWRITABLE, spentByChild, 0, 0, List.of());
      }
      return simpleResult(n, UNAVAILABLE, TurnOutcome.ERROR, "unavailable", spentByChild, 0, 0, List.of());
    }
  }

  /** The ledger's own line when {@code failure} is a ledger that refused an append; else empty. */
  private static Optional<String> ledgerProblem(Throwable failure) {
    return WoErrorCode.isLedgerFailure(WorkOrderRunner.rootType(failure))
        ? Optional.of(WorkOrderRunner.rootMessage(failure)) : Optional.empty();
  }

  /**
   * Seed 002: degradation is the safety net, so failing to log it must not cost the user the
   * degraded answer. The degraded call still goes through the gateway, which records its own
   * EXCHANGE (if the HOT ledger cannot take that either, the call fails and the user is told the
   * service is unavailable).
   */
  private void recordDegradation(int n, SessionEvent event) {
    try {
      session.record(event);
    } catch (ActivityFailure e) {
      if (Workflow.getVersion(DEGRADATION_LOG_NON_FATAL, Workflow.DEFAULT_VERSION, 1) == Workflow.DEFAULT_VERSION) {
        throw e;
      }
      if (ledgerProblem(e).isPresent()) {
        return; // The ledger logged its own line, once; the user hears it from the degraded call's outcome.
      }
      Workflow.getLogger(SessionWorkflowImpl.class).warn("session {} turn {}: DEGRADATION could not be recorded ({});"
          + " answering with the degraded call anyway", sessionId, n, WorkOrderRunner.rootMessage(e));
    }
  }

  private TurnResult simpleResult(int n, String text, String outcome, String errorCode, long alreadySpent,
      long in, long out, List<String> exchangeIds) {
    long total = alreadySpent + in + out;
    CostSummary c = new CostSummary(in, out, total, exchangeIds.size(), 0, 0.0, 0, 0);
    return new TurnResult(text, outcome, sessionId, n, false, List.of(), c, List.of(), exchangeIds, null, errorCode);
  }

  // ------------------------------------------------------------------ end / query

  @Override
  public void validateEnd() {
    if (ended) {
      throw new IllegalStateException("session " + sessionId + " has already ended (" + endReason + ")");
    }
  }

  @Override
  public SessionSummary end() {
    endRequested = true;
    activitySeq++;
    Workflow.await(() -> profile != null);
    turnLock.lock();
    try {
      if (!ended) {
        endAsAsked();
      }
    } finally {
      turnLock.unlock();
    }
    return summary();
  }

  /**
   * The user's {@code end}. A HOT ledger that refuses SESSION_END for good (a broken chain, a file
   * that refuses writes) does not keep the session open (from {@link #LEDGER_UNWRITABLE} 1 on): the
   * session ends, and the summary says SESSION_END was not recorded, why, and what to run. A full
   * disk ({@code ledger_full}) still fails the Update after the local activity's retries: space can
   * be freed, and the next {@code end} then writes SESSION_END.
   */
  private void endAsAsked() {
    try {
      endSession("end");
    } catch (ActivityFailure e) {
      if (!WoErrorCode.LEDGER_UNWRITABLE.equals(WorkOrderRunner.rootType(e))
          || Workflow.getVersion(LEDGER_UNWRITABLE, Workflow.DEFAULT_VERSION, 1) < 1) {
        throw e;
      }
      endNotRecorded = "SESSION_END could not be written: " + WorkOrderRunner.rootMessage(e);
      ended = true;
      endReason = "end";
      activitySeq++;
    }
  }

  /**
   * Ends an expired session. Nobody waits for this end, so it is patient: SESSION_END is the
   * session's last record, and a ledger that refuses it (a full disk) gets it once it is writable
   * again; the write is idempotent, so a retry never writes it twice.
   */
  private void endOnExpiry(String reason) {
    if (Workflow.getVersion(SESSION_END_RETRY, Workflow.DEFAULT_VERSION, 1) < 1) {
      endSession(reason);
      return;
    }
    expiring = true;
    while (true) {
      try {
        endSession(reason);
        return;
      } catch (ActivityFailure e) {
        Workflow.getLogger(SessionWorkflowImpl.class).warn("session {} expired ({}) but SESSION_END could not be"
            + " written ({}); trying again in {}", sessionId, reason, rootMessage(e), SESSION_END_RETRY_INTERVAL);
        Workflow.sleep(SESSION_END_RETRY_INTERVAL);
      }
    }
  }

  private static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null) {
      c = c.getCause();
    }
    return c.getMessage();
  }

  private void endSession(String reason) {
    ObjectNode meta = (ObjectNode) Json.tree(summary(reason));
    meta.put("tokens_remaining", tokensLeft());
    meta.put("runs", runs);
    session.record(new SessionEvent("SESSION_END", "SESSION_END", sessionId, "ENDED",
        "session ended: " + reason, meta));
    ended = true;
    endReason = reason;
    activitySeq++;
  }

  private SessionSummary summary() {
    return summary(endReason);
  }

  private SessionSummary summary(String reason) {
    return new SessionSummary(sessionId, agentClass, turns, tokensUsed, profile.sessionTokenLimit(), cost, reason,
        degradedTurns, endNotRecorded);
  }

  private SessionState snapshot() {
    return new SessionState(sessionId, agentClass, profile, turns, tokensUsed, tokensLeft(), cost, lastOutcome, ended,
        endReason, startedAtMillis, runs, degradedTurns);
  }

  @Override
  public SessionState state() {
    return profile == null ? null : snapshot();
  }
}
