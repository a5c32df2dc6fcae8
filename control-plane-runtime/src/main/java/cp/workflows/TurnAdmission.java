package cp.workflows;

import cp.model.AgentProfile;
import cp.model.Refusal;
import cp.model.RefusedException;
import cp.model.TokenEstimates;
import cp.model.TurnRequest;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.Optional;

/**
 * Decides whether a session takes a turn now: the request's shape and text, then the session's
 * state (ending or ended) and limits (turns, tokens, lifetime). The Update validator asks it
 * before anything is written, and the handler asks again once the agent's profile is loaded and
 * the turn has its place in the queue. Pure workflow code; a refusal is one non-retryable type
 * ({@code turn_refused}) with the stable code in details[0].
 */
final class TurnAdmission {
  private final SessionLifecycle life;
  private final SessionAccount account;
  /** Whether the run is at {@link SessionVersions#DOLLAR_BUDGETS} 1 (issue 23): the session's dollar budget is checked. */
  private boolean dollars;

  TurnAdmission(SessionLifecycle life, SessionAccount account) {
    this.life = life;
    this.account = account;
  }

  /** Set once per run, before the profile is loaded: whether the session's dollar budget is checked. */
  void checkDollars(boolean on) {
    dollars = on;
  }

  /**
   * Why the session cannot take this turn now, or empty. Before the run has loaded the profile
   * only the checks that need no profile apply.
   *
   * @param queued turns accepted before this one that have not completed
   * @param checkShape whether the argument's shape is checked (the validator's alone: a turn
   *     accepted before issue 12 with an extra field must replay as it ran)
   */
  Optional<Refusal.Problem> refusal(TurnRequest request, int queued, boolean checkShape) {
    if (life.isClosing()) {
      return Optional.of(life.endedProblem());
    }
    if (request == null) {
      return Optional.of(new Refusal.Problem(TurnRequest.SHAPE + "; got nothing",
          Refusal.of(Refusal.Code.MISSING_FIELD, "text")));
    }
    if (checkShape && request.problem() != null) {
      return Optional.of(request.problem());
    }
    AgentProfile profile = life.profile();
    if (profile == null) {
      return TurnText.check(request.text(), 0);
    }
    Optional<Refusal.Problem> textProblem = TurnText.check(request.text(), profile.maxMessageBytes());
    if (textProblem.isPresent()) {
      return textProblem;
    }
    String sessionId = life.sessionId();
    if (profile.turnLimit() > 0 && account.turns() + queued >= profile.turnLimit()) {
      return refusedFor("session " + sessionId + " has used all " + profile.turnLimit()
          + " turns its agent allows (budget.turn_limit); start a new session", Refusal.Code.TURN_LIMIT_REACHED);
    }
    Optional<Refusal.Problem> budget = budgetProblem(profile, request.text());
    if (budget.isPresent()) {
      return budget;
    }
    if (dollars) {
      Optional<Refusal.Problem> usd = SessionDollars.problem(sessionId, profile, account.cost(), request.text());
      if (usd.isPresent()) {
        return usd;
      }
    }
    if (life.lifetimeOver(Workflow.currentTimeMillis())) {
      return refusedFor("session " + sessionId + " has reached its lifetime of " + profile.timeoutSeconds()
          + " s (budget.timeout_seconds); start a new session", Refusal.Code.LIFETIME_EXCEEDED);
    }
    return Optional.empty();
  }

  /**
   * Issue 20: the session must be able to pay for the turn's smallest call (the classify call:
   * its prompt's fixed part and the user's text, estimated, plus its max_tokens) before the turn
   * runs; a session that cannot is refused up front, naming its budget, instead of running a turn
   * that fails, counts against the turn limit and blames a work order's budget. A profile recorded
   * before ({@code smallest_call_tokens} 0) is refused only once the budget is spent, as before.
   */
  private Optional<Refusal.Problem> budgetProblem(AgentProfile profile, String text) {
    Budget session = Budget.sessionTokens(profile.sessionTokenLimit(), account.tokensUsed());
    long smallestCall = profile.smallestCallTokens() > 0
        ? profile.smallestCallTokens() + TokenEstimates.ofText(text) : 1;
    return session.reserve(smallestCall).map(short_ -> {
      Long needed = profile.smallestCallTokens() > 0 ? smallestCall : null;
      String why = session.left() == 0
          ? "has used its whole token budget (" + account.tokensUsed() + " of " + profile.sessionTokenLimit() + ")"
          : "cannot pay for this turn's first model call: it has " + session.left() + " of "
              + profile.sessionTokenLimit() + " tokens left (" + Budget.Level.SESSION.setting + ") and that call"
              + " reserves about " + smallestCall + " (its prompt and max_tokens)";
      Refusal r = short_.refusal();
      return new Refusal.Problem("session " + life.sessionId() + " " + why + "; start a new session",
          new Refusal(r.code(), null, null, r.level(), r.cap(), r.spent(), needed));
    });
  }

  private static Optional<Refusal.Problem> refusedFor(String message, Refusal.Code code) {
    return Optional.of(new Refusal.Problem(message, Refusal.of(code)));
  }

  /**
   * A refused Update, turn or end, from its handler: one non-retryable type, the stable code in
   * details[0], no stack trace.
   */
  static ApplicationFailure refused(Refusal.Problem p) {
    ApplicationFailure af = ApplicationFailure.newNonRetryableFailure(p.message(), Refusal.TURN_REFUSED, p.refusal());
    af.setStackTrace(new StackTraceElement[0]);
    return af;
  }

  /** The same refusal from a validator, where the SDK would wrap an ApplicationFailure (see RefusedException). */
  static RefusedException rejected(Refusal.Problem p) {
    return new RefusedException(Refusal.TURN_REFUSED, p.message(), p.refusal());
  }
}
