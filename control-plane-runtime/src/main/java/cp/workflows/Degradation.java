package cp.workflows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho1Activities;
import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.DegradedRequest;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.Json;
import cp.model.LlmRoundResult;
import cp.model.RootCause;
import cp.model.SessionEvent;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.UsdBudgets;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Workflow;
import java.util.Optional;

/**
 * What the session does when its turn workflow failed (seed 002): it counts what the failed turn
 * spent, records a DEGRADATION in the HOT ledger and makes one direct call under the degraded
 * contract; if that fails too, the user gets an honest "temporarily unavailable" (or, when a
 * ledger refused an append, the ledger's own line). Deterministic workflow code.
 */
final class Degradation {
  static final String UNAVAILABLE = "The service is temporarily unavailable: the supervisor failed and the direct"
      + " fallback call failed too. Your message was not lost from the record; please try again in a few minutes.";

  private final SessionActivities session;
  private final Ho1Activities ho1;
  private final SessionLifecycle life;
  private final SessionResults results;
  private final boolean round2;
  /** Issue 23: the session's tenant, whose dollars the degraded call reserves and settles. */
  private final String tenant;

  Degradation(SessionActivities session, Ho1Activities ho1, SessionLifecycle life, SessionResults results,
      boolean round2, String tenant) {
    this.tenant = tenant;
    this.session = session;
    this.ho1 = ho1;
    this.life = life;
    this.results = results;
    this.round2 = round2;
  }

  /**
   * Turn {@code n}'s answer after its workflow {@code childId} failed with {@code f}; {@code usdSpent}
   * is what the session had spent in dollars before the turn (null: not counted).
   */
  TurnResult degrade(int n, String childId, String text, long remaining, Double usdSpent, ChildWorkflowFailure f) {
    String sessionId = life.sessionId();
    AgentProfile profile = life.profile();
    // Before round2 the failed turn's tokens were counted as input tokens and its cost as 0.
    WoCost failedTurn = round2 ? session.turnCost(sessionId, childId)
        : new WoCost(session.turnSpend(sessionId, childId), 0, 0, 0, 0, 0.0);
    long spentByChild = failedTurn.totalTokens();
    String message = RootCause.applicationMessage(f);
    ObjectNode meta = Json.object().put("session_id", sessionId).put("agent_class", life.agentClass()).put("turn", n)
        .put("turn_workflow_id", childId).put("error_type", RootCause.failureType(f)).put("error_message", message)
        .put("tokens_spent_by_failed_turn", spentByChild);
    if (round2) {
      // Seed 002: DEGRADATION carries the session id, the agent id and the error type.
      meta.put("agent_id", profile.agentId()).put("cost_of_failed_turn", failedTurn.cost());
    }
    record(n, new SessionEvent(EventType.DEGRADATION.wire(), EventType.DEGRADATION.wire() + "/" + n, sessionId,
        "DEGRADED", "HO2 failed on turn " + n + ": " + message, meta));
    long left = remaining - spentByChild;
    if (left <= 0) {
      return results.costed(n, "This session's token budget is used up; start a new session to continue.",
          TurnOutcome.ERROR, WoErrorCode.BUDGET_EXHAUSTED, failedTurn, null);
    }
    boolean tenantCall = Workflow.getVersion(SessionVersions.DEGRADED_TENANT, Workflow.DEFAULT_VERSION, 1) >= 1;
    Double usdLeft = null;
    if (profile.sessionUsd() != null && usdSpent != null
        && Workflow.getVersion(SessionVersions.DEGRADED_SESSION_USD, Workflow.DEFAULT_VERSION, 1) >= 1) {
      double spent = usdSpent + failedTurn.cost();
      usdLeft = Math.max(0.0, profile.sessionUsd() - spent);
      if (usdLeft <= 0) {
        return results.costed(n, "The supervisor failed and this session's dollar budget is used up ("
            + UsdBudgets.usd(spent) + " of " + UsdBudgets.usd(profile.sessionUsd()) + ", "
            + UsdBudgets.setting(UsdBudgets.SESSION) + "), so the direct fallback call was not made; a session's"
            + " dollar budget does not reset: start a new session.", TurnOutcome.ERROR, WoErrorCode.BUDGET_EXHAUSTED,
            failedTurn, null);
      }
    }
    try {
      LlmRoundResult r = ho1.degradedCall(new DegradedRequest(sessionId, life.agentClass(), n, text, left,
          tenantCall ? tenant : null, usdLeft));
      if (r instanceof LlmRoundResult.Refused refused) {
        cp.model.RefusalKind kind = refused.refusalKind(); // results recorded before the kinds: from the words
        if (tenantCall && kind.unpriced()) {
          return results.costed(n, "The supervisor failed and the direct fallback call was not sent: "
              + refused.message() + ". " + UsdBudgets.PRICE_ADVICE, TurnOutcome.ERROR, refused.code(), failedTurn, null);
        }
        if (usdLeft != null && kind.usd() && !kind.tenant()) {
          // The session's dollars cannot pay for the call's worst case: it was not sent.
          return results.costed(n, "The supervisor failed and the direct fallback call was not sent: "
              + refused.message() + ". A session's dollar budget does not reset: start a new session.",
              TurnOutcome.ERROR, refused.code(), failedTurn, null);
        }
        if (tenantCall && kind.tenant()) {
          // Issue 23: the tenant's daily or monthly cap, with when it resets; never the session's token advice.
          return results.costed(n, "The supervisor failed and the direct fallback call was not sent: "
              + refused.message() + ". Try again after the reset, or have an operator raise the tenant's cap ("
              + UsdBudgets.TENANTS_FILE + ").", TurnOutcome.ERROR, refused.code(), failedTurn, null);
        }
        // Issue 20: a fallback call the session's tokens cannot pay for says so, not "unavailable".
        String answer = WoErrorCode.BUDGET_EXHAUSTED.equals(refused.code())
            ? "The supervisor failed and this session's token budget cannot pay for the direct fallback call ("
                + left + " tokens left, " + Budget.Level.SESSION.setting + " = " + profile.sessionTokenLimit()
                + "); start a new session to continue."
            : UNAVAILABLE;
        return results.costed(n, answer, TurnOutcome.ERROR, refused.code(), failedTurn, null);
      }
      if (!(r instanceof LlmRoundResult.Answered answer)) {
        throw new IllegalStateException("the degraded call answers or is refused; it returned " + r.kind());
      }
      return results.costed(n, answer.text(), TurnOutcome.DEGRADED, TurnWorkflowImpl.HO2_FAILED, failedTurn,
          answer.exchange());
    } catch (ActivityFailure e) {
      Optional<String> ledger = ledgerProblem(e).or(() -> ledgerProblem(f));
      if (ledger.isPresent()
          && Workflow.getVersion(SessionVersions.LEDGER_UNWRITABLE, Workflow.DEFAULT_VERSION, 1) >= 1) {
        // Issue 20: a ledger database that was down says so (ledger_unavailable), not "unwritable".
        String code = FailureCode.LEDGER_UNAVAILABLE.is(RootCause.failureType(e))
            ? FailureCode.LEDGER_UNAVAILABLE.wire() : WoErrorCode.LEDGER_UNWRITABLE;
        return results.costed(n, "This turn could not run: " + ledger.get(), TurnOutcome.ERROR, code, failedTurn,
            null);
      }
      if (FailureCode.PROVIDER_UNREACHABLE.is(RootCause.failureType(e))) {
        // Issue 20: which endpoint and why (connection refused, unknown host), not "temporarily unavailable".
        return results.costed(n, "This turn could not run: " + RootCause.applicationMessage(e), TurnOutcome.ERROR,
            FailureCode.PROVIDER_UNREACHABLE.wire(), failedTurn, null);
      }
      // Issue 23: what failed (the provider's error, a fallback skipped for budget), not only "unavailable".
      return results.costed(n, UNAVAILABLE + " What failed: " + message, TurnOutcome.ERROR,
          FailureCode.UNAVAILABLE.wire(), failedTurn, null);
    }
  }

  /**
   * Degradation is the safety net, so failing to log it must not cost the user the degraded
   * answer. The degraded call still goes through the gateway, which records its own EXCHANGE (if
   * the HOT ledger cannot take that either, the call fails and the user is told the service is
   * unavailable).
   */
  private void record(int n, SessionEvent event) {
    try {
      session.record(event);
    } catch (ActivityFailure e) {
      if (Workflow.getVersion(SessionVersions.DEGRADATION_LOG_NON_FATAL, Workflow.DEFAULT_VERSION, 1)
          == Workflow.DEFAULT_VERSION) {
        throw e;
      }
      if (ledgerProblem(e).isPresent()) {
        return; // The ledger logged its own line, once; the user hears it from the degraded call's outcome.
      }
      Workflow.getLogger(Degradation.class).warn("session {} turn {}: DEGRADATION could not be recorded ({});"
          + " answering with the degraded call anyway", life.sessionId(), n, RootCause.applicationMessage(e));
    }
  }

  /** The ledger's own line when {@code failure} is a ledger that refused an append; else empty. */
  static Optional<String> ledgerProblem(Throwable failure) {
    return WoErrorCode.isLedgerFailure(RootCause.failureType(failure))
        ? Optional.of(RootCause.applicationMessage(failure)) : Optional.empty();
  }
}
