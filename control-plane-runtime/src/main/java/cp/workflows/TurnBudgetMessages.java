package cp.workflows;

import cp.model.AgentProfile;
import cp.model.WorkOrder;

/**
 * What a turn that a token budget stopped says to the user (issue 20): which budget ran out, what
 * was spent and what to do. Pure text from the profile and the failed work order; deterministic.
 */
final class TurnBudgetMessages {
  private TurnBudgetMessages() {}

  /** The session's budget ran out midway: a work order got what the session had left, and spent it. */
  static String session(AgentProfile p, WorkOrder failed, long remaining) {
    return "This turn stopped before it had an answer: the session's token budget (agent " + p.agentClass() + " "
        + Budget.Level.SESSION.setting + " = " + p.sessionTokenLimit() + ") has " + Math.max(0, remaining)
        + " tokens left, too few for the next model call of its " + failed.woType().wireName() + " work order "
        + failed.woId() + " (" + failed.error().message() + "). What it spent is counted. Start a new session to"
        + " continue.";
  }

  /** The work order's own cap ({@code budget.wo_token_budget}) ran out while the session still had tokens. */
  static String workOrder(AgentProfile p, WorkOrder failed, long remaining) {
    return "This turn stopped before it had an answer: its " + failed.woType().wireName() + " work order "
        + failed.woId() + " used up its own token budget of " + failed.constraints().tokenBudget() + " tokens (agent "
        + p.agentClass() + " budget.wo_token_budget = " + p.woTokenBudget() + ") after "
        + failed.cost().llmCalls() + " model call(s) and " + failed.cost().toolCalls() + " tool call(s). The session"
        + " still has " + remaining + " of " + p.sessionTokenLimit() + " tokens left: ask again, perhaps in"
        + " smaller steps, or have an operator raise budget.wo_token_budget.";
  }
}
