package cp.gateway;

import cp.model.PromptRequest;
import cp.model.RefusalKind;
import cp.model.UsdBudgets;
import java.util.Optional;

/**
 * Issue 23: a call reserves the most it can cost against the dollars its work order has left (the
 * tightest of the work order's and the session's dollar budgets, from workflow state): its prompt
 * (estimated conservatively, {@link TokenEstimate}) at the dearest prompt price and all of
 * max_tokens at the output price. One that does not fit is not sent. A model with no price cannot
 * be held to a dollar budget, so its call is not sent either (the worker refuses to start with such
 * an agent; this is the guard for a contract that names another model).
 */
final class DollarReservation {
  private DollarReservation() {}

  /** Which budget a {@link #shortfall} of {@code r} refuses for: its level's, or an unpriced model's. */
  static RefusalKind kind(PromptRequest r, Optional<Pricing> pricing) {
    return pricing.isEmpty() ? RefusalKind.UNPRICED
        : RefusalKind.ofUsdLevel(r.usdBudgetLevel() == null ? UsdBudgets.WORK_ORDER : r.usdBudgetLevel());
  }

  /** Why {@code r} may not be sent, or empty when its dollar budget (if any) can pay its worst case. */
  static Optional<String> shortfall(PromptRequest r, String model, Optional<Pricing> pricing) {
    if (r.usdBudgetRemaining() == null) {
      return Optional.empty();
    }
    String level = r.usdBudgetLevel() == null ? UsdBudgets.WORK_ORDER : r.usdBudgetLevel();
    if (pricing.isEmpty()) {
      return Optional.of(UsdBudgets.unpricedRefusal(level, model));
    }
    long estimate = TokenEstimate.ofPrompt(r);
    double worst = pricing.get().worstCase(estimate, Math.max(0, r.maxTokens()));
    if (worst > r.usdBudgetRemaining()) {
      return Optional.of(UsdBudgets.refusal(level, Math.max(0, r.usdBudgetRemaining()), worst, "prompt about "
          + estimate + " tokens + max_tokens " + r.maxTokens() + " at " + model + "'s price"));
    }
    return Optional.empty();
  }
}
