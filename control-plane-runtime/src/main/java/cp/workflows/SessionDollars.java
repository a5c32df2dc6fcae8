package cp.workflows;

import cp.model.AgentProfile;
import cp.model.Refusal;
import cp.model.TokenEstimates;
import cp.model.UsdBudgets;
import java.util.Optional;

/**
 * Issue 23: a session whose dollar budget ({@code budget.session_usd}) cannot pay for a turn's
 * smallest call is refused up front, naming that budget, before any provider call: the call's
 * worst case is the agent's fixed smallest call at the model's price plus the message's own tokens
 * at the dearest prompt price. Pure workflow code.
 */
final class SessionDollars {
  /** A session's dollar budget never resets: the refusal says so. */
  static final String NEVER = "never";
  private static final double PER_MILLION = 1_000_000.0;

  private SessionDollars() {}

  /** Why the session cannot pay for the turn carrying {@code text}, or empty (no cap, or it can). */
  static Optional<Refusal.Problem> problem(String sessionId, AgentProfile profile, double spent, String text) {
    if (profile.sessionUsd() == null) {
      return Optional.empty();
    }
    double cap = profile.sessionUsd();
    double left = Math.max(0.0, cap - spent);
    Double needed = profile.smallestCallUsd() == null ? null
        : profile.smallestCallUsd() + TokenEstimates.ofText(text) * orZero(profile.promptUsdPerMtok()) / PER_MILLION;
    boolean cannotPay = left <= 0 || (needed != null && needed > left);
    if (!cannotPay) {
      return Optional.empty();
    }
    String why = left <= 0
        ? "has used its whole dollar budget (" + UsdBudgets.usd(spent) + " of " + UsdBudgets.usd(cap) + ", "
            + UsdBudgets.setting(UsdBudgets.SESSION) + ")"
        : "cannot pay for this turn's first model call: it has " + UsdBudgets.usd(left) + " of " + UsdBudgets.usd(cap)
            + " left (" + UsdBudgets.setting(UsdBudgets.SESSION) + ") and that call reserves up to "
            + UsdBudgets.usd(needed) + " (its prompt and max_tokens at the model's price)";
    return Optional.of(new Refusal.Problem("session " + sessionId + " " + why + "; a session's dollar budget does not"
        + " reset: start a new session", Refusal.usdBudgetExhausted(UsdBudgets.SESSION, cap, Math.min(spent, cap),
        needed, NEVER)));
  }

  private static double orZero(Double d) {
    return d == null ? 0.0 : d;
  }
}
