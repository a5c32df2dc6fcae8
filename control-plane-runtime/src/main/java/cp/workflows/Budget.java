package cp.workflows;

import cp.model.Refusal;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One cap a model call must fit under (issue 20): a level (the session's, a work order's), a
 * currency, the cap and what is spent of it. A call reserves what it may cost against every
 * budget above it and runs only if each can pay; when one cannot, it is that one the user hears
 * about, with its setting. Tokens are the only currency today; dollar budgets (issue 23) add a
 * {@link Currency} and their own levels, and reserve the same way. Pure values, safe in workflows.
 */
record Budget(Level level, Currency currency, long cap, long spent) {
  /** What a budget counts. */
  enum Currency {
    TOKENS("tokens");

    final String unit;

    Currency(String unit) {
      this.unit = unit;
    }
  }

  /** Whose budget it is, with the agent setting that sets it. */
  enum Level {
    SESSION("session", "budget.session_token_limit"),
    WORK_ORDER("work_order", "budget.wo_token_budget");

    final String wire;
    final String setting;

    Level(String wire, String setting) {
      this.wire = wire;
      this.setting = setting;
    }
  }

  static Budget sessionTokens(long cap, long spent) {
    return new Budget(Level.SESSION, Currency.TOKENS, cap, spent);
  }

  static Budget workOrderTokens(long cap, long spent) {
    return new Budget(Level.WORK_ORDER, Currency.TOKENS, cap, spent);
  }

  /** What is left, never below 0. */
  long left() {
    return Math.max(0, cap - spent);
  }

  /** Why a reservation of {@code amount} does not fit, or empty when it does. */
  Optional<Shortfall> reserve(long amount) {
    return amount > left() ? Optional.of(new Shortfall(this, amount)) : Optional.empty();
  }

  /** Of several budgets (one currency), the one with the least left: the one that runs out first. */
  static Budget tightest(List<Budget> budgets) {
    return budgets.stream().min(Comparator.comparingLong(Budget::left)).orElseThrow();
  }

  /** A budget that cannot pay for a reservation: what the refusal and the user's message say. */
  record Shortfall(Budget budget, long needed) {
    Refusal refusal() {
      return Refusal.budgetExhausted(budget.level().wire, budget.cap(), budget.spent(), needed);
    }
  }
}
