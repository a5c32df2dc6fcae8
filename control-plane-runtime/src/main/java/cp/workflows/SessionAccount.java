package cp.workflows;

import cp.model.SessionState;
import cp.model.TurnOutcome;
import cp.model.TurnResult;

/**
 * What a session has used and done: turns, tokens, cost, its last outcome, degraded turns, and
 * the turns of this run (for continue-as-new). Pure workflow state; carried across
 * continue-as-new in {@link SessionState}.
 */
final class SessionAccount {
  private int turns;
  private long tokensUsed;
  private double cost;
  private String lastOutcome;
  private int degradedTurns;
  private int turnsThisRun;

  /** Takes over what the run before counted (continue-as-new). */
  void carry(SessionState carried) {
    turns = carried.turns();
    tokensUsed = carried.tokensUsed();
    cost = carried.cost();
    lastOutcome = carried.lastOutcome();
    degradedTurns = carried.degradedTurns();
  }

  /** Counts turn {@code n}'s result: its tokens and cost, its outcome. */
  void count(int n, TurnResult r) {
    turns = n;
    turnsThisRun++;
    tokensUsed += r.costSummary().totalTokens();
    cost += r.costSummary().cost();
    lastOutcome = r.outcome();
    if (TurnOutcome.DEGRADED.equals(r.outcome())) {
      degradedTurns++;
    }
  }

  int turns() {
    return turns;
  }

  int turnsThisRun() {
    return turnsThisRun;
  }

  long tokensUsed() {
    return tokensUsed;
  }

  double cost() {
    return cost;
  }

  String lastOutcome() {
    return lastOutcome;
  }

  int degradedTurns() {
    return degradedTurns;
  }

  /** The session's tokens not yet used under {@code limit}; negative once overspent. */
  long remaining(long limit) {
    return limit - tokensUsed;
  }

  /** The session's tokens not yet used under {@code limit}, never below 0. */
  long tokensLeft(long limit) {
    return Math.max(0, limit - tokensUsed);
  }
}
