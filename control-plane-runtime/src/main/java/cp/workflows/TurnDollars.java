package cp.workflows;

import cp.model.AgentProfile;
import cp.model.TurnInput;
import cp.model.UsdBudgets;
import cp.model.WoConstraints;
import cp.model.WorkOrder;

/**
 * Issue 23: a turn's dollar budgets, kept in workflow state like its tokens. Each work order gets
 * what is left of the tightest of its own cap ({@code budget.work_order_usd}) and the session's
 * ({@code budget.session_usd} less what the session spent before the turn and the turn since);
 * each of its calls reserves its worst case against that in the gateway, and what a call cost is
 * debited from the work order's cost. Off (no figures anywhere) for an agent without a dollar cap
 * or a turn from a session before {@link TurnWorkflowImpl#DOLLAR_BUDGETS} 1. Pure workflow code.
 */
final class TurnDollars {
  private final AgentProfile profile;
  private final Double sessionSpentBefore;

  private TurnDollars(AgentProfile profile, Double sessionSpentBefore) {
    this.profile = profile;
    this.sessionSpentBefore = sessionSpentBefore;
  }

  /** The turn's dollar budgets; {@code versioned}: the turn is at {@link TurnWorkflowImpl#DOLLAR_BUDGETS} 1. */
  static TurnDollars of(TurnInput in, boolean versioned) {
    boolean on = versioned && in.sessionUsdSpent() != null && in.profile().hasUsdCap();
    return new TurnDollars(in.profile(), on ? in.sessionUsdSpent() : null);
  }

  boolean on() {
    return sessionSpentBefore != null;
  }

  /** The session's dollars left after the turn spent {@code turnSpent}; infinite without a session cap. */
  double sessionLeft(double turnSpent) {
    return !on() || profile.sessionUsd() == null ? Double.POSITIVE_INFINITY
        : Math.max(0.0, profile.sessionUsd() - sessionSpentBefore - turnSpent);
  }

  /** {@code c} with the tightest dollar budget's remainder and its level, when the turn has dollar budgets. */
  WoConstraints apply(WoConstraints c, double turnSpent) {
    if (!on()) {
      return c;
    }
    double session = sessionLeft(turnSpent);
    double own = profile.workOrderUsd() == null ? Double.POSITIVE_INFINITY : profile.workOrderUsd();
    return own <= session ? c.withUsd(own, UsdBudgets.WORK_ORDER) : c.withUsd(session, UsdBudgets.SESSION);
  }

  /** Whether the session's dollars are spent, so no further work order can start. */
  boolean sessionSpent(double turnSpent) {
    return on() && sessionLeft(turnSpent) <= 0;
  }

  /** Whether {@code failed} (a budget_exhausted work order) was refused for dollars rather than tokens. */
  boolean refusedFor(WorkOrder failed) {
    return on() && failed != null && failed.constraints().usdBudget() != null
        && failed.error().refusalKind().usd();
  }

  /**
   * What the user reads when {@code failed}'s call was refused because its model has no price (any
   * dollar budget: the work order's, the session's, a tenant's): the fix is a price, not a cap or a reset.
   */
  static String unpriced(WorkOrder failed) {
    return "This turn stopped before it had an answer: its " + failed.woType().wireName() + " work order "
        + failed.woId() + " could not send its next model call: " + failed.error().message() + ". "
        + UsdBudgets.PRICE_ADVICE;
  }

  /** What the user reads when a dollar budget stopped the turn; {@code failed} null: the session's was spent before. */
  String message(WorkOrder failed, double turnSpent) {
    String cls = profile.agentClass();
    if (failed == null || UsdBudgets.SESSION.equals(failed.constraints().usdLevel())) {
      return "This turn stopped before it had an answer: the session's dollar budget (agent " + cls + " "
          + UsdBudgets.setting(UsdBudgets.SESSION) + " = " + UsdBudgets.usd(profile.sessionUsd()) + ") has "
          + UsdBudgets.usd(sessionLeft(turnSpent)) + " left, too little for the next model call"
          + (failed == null ? "" : " of its " + failed.woType().wireName() + " work order " + failed.woId() + " ("
              + failed.error().message() + ")") + ". What it spent is counted; the budget does not reset. Start a new"
          + " session to continue.";
    }
    return "This turn stopped before it had an answer: its " + failed.woType().wireName() + " work order "
        + failed.woId() + " cannot pay for its next model call from its own dollar budget (agent " + cls + " "
        + UsdBudgets.setting(UsdBudgets.WORK_ORDER) + " = " + UsdBudgets.usd(profile.workOrderUsd()) + "; it spent "
        + UsdBudgets.usd(failed.cost().cost()) + "): " + failed.error().message() + ". Ask again, perhaps in smaller"
        + " steps, or have an operator raise " + UsdBudgets.setting(UsdBudgets.WORK_ORDER) + ".";
  }
}
