package cp.workflows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho1Activities;
import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.CostSummary;
import cp.model.DegradedRequest;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.Json;
import cp.model.LlmRoundResult;
import cp.model.Refusal;
import cp.model.RefusedException;
import cp.model.RootCause;
import cp.model.SessionEvent;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnInput;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import cp.model.WorkOrderIds;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.DynamicQueryHandler;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowLock;
import java.time.Duration;
import java.util.ArrayList;
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
  /** Error type of every refused Update, turn or end (the Update fails; nothing was written). */
  public static final String TURN_REFUSED = Refusal.TURN_REFUSED;
  /**
   * Refusal code (details[0].code of a {@link #TURN_REFUSED}) of a turn or end refused because the
   * session has ended or is ending (SESSION_END being written): a client waits for the session's
   * result and says when and why it ended. Until issue 12 it was the failure's type.
   */
  public static final String SESSION_ENDED = FailureCode.SESSION_ENDED.wire();
  /**
   * Version marker of issue 12's contract defence: from version 1 on the session refuses a start
   * input that is not a session's ({@code start_refused}, the workflow fails at once: a malformed
   * input, a missing or not upper-case agent_class, a workflow id other than session_id, an agent
   * class the catalog does not have) and sets its own search attributes (CpSessionId,
   * CpAgentClass, CpTurn) when its start did not.
   */
  static final String CONTRACT_DEFENCE = "contract-defence";
  /**
   * Version marker: from version 1 on, a turn or {@code end} that arrives while SESSION_START is
   * being written waits until it is on record (before, it waited only for the profile, so under
   * load SESSION_END, or a turn's child, could come before SESSION_START).
   */
  static final String START_FIRST = "start-first";
  /** An agent class as the catalog names it: upper-case letters, digits and underscores. */
  static final java.util.regex.Pattern AGENT_CLASS = java.util.regex.Pattern.compile("[A-Z][A-Z0-9_]*");
  /** The queries a session answers, for the refusal of an unknown one. */
  static final String KNOWN_QUERIES = "state";
  /** Failure type of a Query the session does not know. */
  static final String UNKNOWN_QUERY = FailureCode.UNKNOWN_QUERY.wire();
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
  /**
   * Version marker of issue 11's session changes, one id for all of them: the session ends with
   * SESSION_END {@code turn_limit} when its last allowed turn completes; a turn (child workflow and
   * degraded call) has a total deadline, {@code budget.turn_timeout_seconds}; a degraded turn
   * counts what the failed turn's EXCHANGEs hold (tokens and cost, {@code SessionTurnCost}) and
   * its degraded call's cost.
   */
  static final String ROUND2_SESSION = "round2-session";
  static final int ROUND2_VERSION = 1;
  /** SESSION_END's end_reason when the last turn the agent allows has completed. */
  public static final String TURN_LIMIT = "turn_limit";
  /** A turn's error_code when the agent's turn deadline passed before it had an answer. */
  public static final String TURN_DEADLINE_EXCEEDED = FailureCode.TURN_DEADLINE_EXCEEDED.wire();
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
  /** Whether this run has the {@link #ROUND2_SESSION} behaviour. */
  private boolean round2;
  private long endedAtMillis;
  /**
   * SESSION_START is on record (or this run carries an earlier run's state): turns and {@code end}
   * wait for it, so no entry of the session precedes its SESSION_START in the ledger.
   */
  private boolean startRecorded;
  /** From {@link #START_FIRST} 1 on: Updates wait for {@link #startRecorded}, not only the profile. */
  private boolean startFirst;
  /** Issue 15: the approvals the running turn waits for and how they were decided. */
  private final SessionApprovals approvals = new SessionApprovals();
  /** The running turn's workflow id, while a turn runs; the only turn whose approvals the session takes. */
  private String runningTurnWorkflowId;

  @Override
  public SessionSummary run(SessionInput in) {
    Workflow.registerListener((DynamicQueryHandler) (queryType, args) -> {
      throw new RefusedException(UNKNOWN_QUERY, "unknown query '" + queryType + "' (known: " + KNOWN_QUERIES + ")",
          null);
    });
    round2 = Workflow.getVersion(ROUND2_SESSION, Workflow.DEFAULT_VERSION, ROUND2_VERSION) >= ROUND2_VERSION;
    startFirst = Workflow.getVersion(START_FIRST, Workflow.DEFAULT_VERSION, 1) >= 1;
    boolean defend = Workflow.getVersion(CONTRACT_DEFENCE, Workflow.DEFAULT_VERSION, 1) >= 1;
    if (defend) {
      refuseBadStart(in);
    }
    sessionId = in.sessionId();
    agentClass = in.agentClass();
    canAfterTurns = in.continueAsNewAfterTurns() > 0 ? in.continueAsNewAfterTurns() : DEFAULT_CONTINUE_AS_NEW_TURNS;
    SessionState carried = in.carried();
    if (carried == null) {
      profile = defend ? profileOrRefuse() : session.profile(agentClass);
      startedAtMillis = Workflow.currentTimeMillis();
      runs = 1;
      ObjectNode meta = Json.object().put("session_id", sessionId).put("agent_class", agentClass)
          .put("agent_id", profile.agentId()).put("session_token_limit", profile.sessionTokenLimit())
          .put("turn_limit", profile.turnLimit());
      session.record(new SessionEvent(EventType.SESSION_START.wire(), EventType.SESSION_START.wire(), sessionId,
          "STARTED",
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
    startRecorded = true;
    lastActivityAt = Workflow.currentTimeMillis();
    if (defend) {
      setOwnSearchAttributes();
    }

    while (!ended) {
      long waitMillis = millisUntilExpiry();
      boolean lastTurnDone = lastAllowedTurnDone();
      if ((waitMillis <= 0 || lastTurnDone) && pendingTurns == 0 && !endRequested) {
        turnLock.lock();
        try {
          if (!ended) {
            endOnExpiry(lastTurnDone ? TURN_LIMIT : expiryReason());
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
      if (!ended && !endRequested && pendingTurns == 0 && !lastAllowedTurnDone() && continueAsNewDue()) {
        Workflow.await(Workflow::isEveryHandlerFinished);
        Workflow.continueAsNew(new SessionInput(sessionId, agentClass, snapshot(), canAfterTurns));
      }
    }
    Workflow.await(Workflow::isEveryHandlerFinished);
    return summary();
  }

  // ------------------------------------------------------------------ start contract

  /**
   * Issue 12: a start input that is not a session's fails the workflow at once, non-retryable,
   * naming the field, instead of failing its first task for ever (a converter error) or running
   * a session no tool can find (a workflow id other than its session id) or show (an agent class
   * not as the catalog names it). Pure workflow code: the catalog check is {@link #profileOrRefuse}.
   */
  private static void refuseBadStart(SessionInput in) {
    if (in == null) {
      throw startRefused("start input is missing; a session starts with {\"session_id\": string, \"agent_class\":"
          + " string}", Refusal.of(Refusal.Code.MISSING_FIELD));
    }
    if (in.problem() != null) {
      throw startRefused(in.problem().message(), in.problem().refusal());
    }
    // Recorded (a side-effect marker), not read on each replay: an offline replayer runs a history
    // file under a made-up workflow id, and would otherwise refuse a start the service accepted.
    String workflowId = Workflow.sideEffect(String.class, () -> Workflow.getInfo().getWorkflowId());
    if (in.sessionId() == null) {
      throw startRefused("start input: session_id is missing (it must be the workflow id, '" + workflowId + "')",
          Refusal.of(Refusal.Code.MISSING_FIELD, "session_id"));
    }
    if (!in.sessionId().equals(workflowId)) {
      throw startRefused("start input: session_id '" + in.sessionId() + "' is not the workflow id '" + workflowId
          + "'; a session's workflow id must be its session_id, or no tool can find it", Refusal.of(Refusal.Code.WORKFLOW_ID_MISMATCH, "session_id"));
    }
    if (!WorkOrderIds.SESSION_ID.matcher(in.sessionId()).matches()) {
      throw startRefused("start input: session_id '" + in.sessionId() + "' is not a session id (expected SES- and 8"
          + " hex digits, e.g. SES-1a2b3c4d)", Refusal.of(Refusal.Code.INVALID_SESSION_ID, "session_id"));
    }
    if (in.agentClass() == null) {
      throw startRefused("start input: agent_class is missing (an agent class as the catalog names it, upper-case,"
          + " e.g. ADMIN)", Refusal.of(Refusal.Code.MISSING_FIELD, "agent_class"));
    }
    if (!AGENT_CLASS.matcher(in.agentClass()).matches()) {
      String upper = in.agentClass().trim().toUpperCase(java.util.Locale.ROOT);
      throw startRefused("start input: agent_class '" + in.agentClass() + "' is not an agent class: agent classes"
          + " are upper-case letters, digits and '_' as the catalog names them"
          + (AGENT_CLASS.matcher(upper).matches() ? " (did you mean '" + upper + "'?)" : ""),
          Refusal.of(Refusal.Code.INVALID_AGENT_CLASS, "agent_class"));
    }
  }

  /** The agent's profile; an agent class the catalog does not have refuses the start, naming the known ones. */
  private AgentProfile profileOrRefuse() {
    try {
      return session.profile(agentClass);
    } catch (ActivityFailure e) {
      if (e.getCause() instanceof ApplicationFailure af && Refusal.UNKNOWN_AGENT_CLASS.equals(af.getType())) {
        String known = "";
        try {
          List<?> classes = af.getDetails().get(0, List.class);
          known = classes == null || classes.isEmpty() ? "" : " (known: " + String.join(", ",
              classes.stream().map(String::valueOf).toList()) + ")";
        } catch (RuntimeException unreadable) {
          known = "";
        }
        throw startRefused("start input: agent_class '" + agentClass + "' is unknown" + known,
            Refusal.of(Refusal.Code.UNKNOWN_AGENT_CLASS, "agent_class"));
      }
      throw e;
    }
  }

  private static ApplicationFailure startRefused(String message, Refusal refusal) {
    ApplicationFailure af = ApplicationFailure.newNonRetryableFailure(message, Refusal.START_REFUSED, refusal);
    af.setStackTrace(new StackTraceElement[0]);
    return af;
  }

  /**
   * The session's search attributes, set by the session itself so that a session any client
   * started can be found: only those its start did not set (or set otherwise), so a start that
   * set them all costs no command.
   */
  private void setOwnSearchAttributes() {
    var current = Workflow.getTypedSearchAttributes();
    List<io.temporal.common.SearchAttributeUpdate<?>> updates = new ArrayList<>(3);
    if (!sessionId.equals(current.get(CpSearchAttributes.SESSION_ID))) {
      updates.add(CpSearchAttributes.SESSION_ID.valueSet(sessionId));
    }
    if (!agentClass.equals(current.get(CpSearchAttributes.AGENT_CLASS))) {
      updates.add(CpSearchAttributes.AGENT_CLASS.valueSet(agentClass));
    }
    if (!Long.valueOf(turns).equals(current.get(CpSearchAttributes.TURN))) {
      updates.add(CpSearchAttributes.TURN.valueSet((long) turns));
    }
    if (!updates.isEmpty()) {
      Workflow.upsertTypedSearchAttributes(updates.toArray(io.temporal.common.SearchAttributeUpdate<?>[]::new));
    }
  }

  /**
   * Seed 003 test 22: the session ends when its turn limit is reached, that is when the last
   * allowed turn has completed (from {@link #ROUND2_SESSION} on; before, later turns were only
   * refused).
   */
  private boolean lastAllowedTurnDone() {
    return round2 && profile != null && profile.turnLimit() > 0 && turns >= profile.turnLimit();
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
    refusal(request, pendingTurns, true).ifPresent(p -> {
      throw rejected(p);
    });
  }

  /**
   * A refused Update, turn or end, from its handler: one non-retryable type, the stable code in
   * details[0], no stack trace.
   */
  private static ApplicationFailure refused(Refusal.Problem p) {
    ApplicationFailure af = ApplicationFailure.newNonRetryableFailure(p.message(), TURN_REFUSED, p.refusal());
    af.setStackTrace(new StackTraceElement[0]);
    return af;
  }

  /** The same refusal from a validator, where the SDK would wrap an ApplicationFailure (see RefusedException). */
  private static RefusedException rejected(Refusal.Problem p) {
    return new RefusedException(TURN_REFUSED, p.message(), p.refusal());
  }

  /** "session SES-… has ended (idle_timeout at 2026-…)", or "… is ending" while SESSION_END is being written. */
  private Refusal.Problem endedProblem() {
    String why = endReason == null ? "" : " (" + endReason
        + (endedAtMillis > 0 ? " at " + java.time.Instant.ofEpochMilli(endedAtMillis) : "") + ")";
    return new Refusal.Problem("session " + sessionId + " has ended" + why + "; start a new session",
        new Refusal(SESSION_ENDED, null, endReason));
  }

  /**
   * Why the session cannot take this turn now, or empty. An Update can arrive in the first
   * workflow task, before {@code run} has loaded the profile; then only the checks that need no
   * profile apply here, and the handler checks again once the profile is there.
   */
  private Optional<Refusal.Problem> refusal(TurnRequest request, int queued, boolean checkShape) {
    if (ended || endRequested || expiring) {
      return Optional.of(endedProblem());
    }
    if (request == null) {
      return Optional.of(new Refusal.Problem(TurnRequest.SHAPE + "; got nothing",
          Refusal.of(Refusal.Code.MISSING_FIELD, "text")));
    }
    if (checkShape && request.problem() != null) {
      return Optional.of(request.problem());
    }
    if (profile == null) {
      return TurnText.check(request.text(), 0);
    }
    Optional<Refusal.Problem> textProblem = TurnText.check(request.text(), profile.maxMessageBytes());
    if (textProblem.isPresent()) {
      return textProblem;
    }
    if (profile.turnLimit() > 0 && turns + queued >= profile.turnLimit()) {
      return refusedFor("session " + sessionId + " has used all " + profile.turnLimit()
          + " turns its agent allows (budget.turn_limit); start a new session", Refusal.Code.TURN_LIMIT_REACHED);
    }
    if (tokensUsed >= profile.sessionTokenLimit()) {
      return refusedFor("session " + sessionId + " has used its whole token budget (" + tokensUsed + " of "
          + profile.sessionTokenLimit() + "); start a new session", Refusal.Code.BUDGET_EXHAUSTED);
    }
    if (profile.timeoutSeconds() > 0 && Workflow.currentTimeMillis() >= lifetimeEndsAt()) {
      return refusedFor("session " + sessionId + " has reached its lifetime of " + profile.timeoutSeconds()
          + " s (budget.timeout_seconds); start a new session", Refusal.Code.LIFETIME_EXCEEDED);
    }
    return Optional.empty();
  }

  private static Optional<Refusal.Problem> refusedFor(String message, Refusal.Code code) {
    return Optional.of(new Refusal.Problem(message, Refusal.of(code)));
  }

  @Override
  public TurnResult turn(TurnRequest request) {
    pendingTurns++;
    activitySeq++;
    Workflow.await(this::readyForUpdates);
    turnLock.lock();
    try {
      // The argument's shape is the validator's alone: a turn accepted before issue 12 with an extra
      // field must replay as it ran.
      Optional<Refusal.Problem> refused = refusal(request, pendingTurns - 1, false);
      if (refused.isPresent()) {
        throw refused(refused.get());
      }
      int n = turns + 1;
      long remaining = profile.sessionTokenLimit() - tokensUsed;
      TurnResult r = round2 ? runTurnWithDeadline(n, request.text(), remaining) : runTurn(n, request.text(), remaining);
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
      if (runningTurnWorkflowId != null) {
        approvals.turnEnded(runningTurnWorkflowId, Workflow.currentTimeMillis());
        runningTurnWorkflowId = null;
      }
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
    runningTurnWorkflowId = childId;
    try {
      return child.run(new TurnInput(sessionId, n, text, remaining, profile));
    } catch (ChildWorkflowFailure f) {
      if (round2 && CancellationScope.current().isCancelRequested()) {
        // The turn's deadline passed and the session has answered; a cancelled turn is not a
        // failed supervisor, so nothing degrades (and nothing more is written or spent).
        throw f;
      }
      return degrade(n, childId, text, remaining, f);
    }
  }

  private TurnResult degrade(int n, String childId, String text, long remaining, ChildWorkflowFailure f) {
    // Before round2 the failed turn's tokens were counted as input tokens and its cost as 0.
    WoCost failedTurn = round2 ? session.turnCost(sessionId, childId)
        : new WoCost(session.turnSpend(sessionId, childId), 0, 0, 0, 0, 0.0);
    long spentByChild = failedTurn.totalTokens();
    String message = RootCause.applicationMessage(f);
    ObjectNode meta = Json.object().put("session_id", sessionId).put("agent_class", agentClass).put("turn", n)
        .put("turn_workflow_id", childId).put("error_type", RootCause.failureType(f)).put("error_message", message)
        .put("tokens_spent_by_failed_turn", spentByChild);
    if (round2) {
      // Seed 002: DEGRADATION carries the session id, the agent id and the error type.
      meta.put("agent_id", profile.agentId()).put("cost_of_failed_turn", failedTurn.cost());
    }
    recordDegradation(n, new SessionEvent(EventType.DEGRADATION.wire(), EventType.DEGRADATION.wire() + "/" + n,
        sessionId, "DEGRADED",
        "HO2 failed on turn " + n + ": " + message, meta));
    long left = remaining - spentByChild;
    if (left <= 0) {
      return costedResult(n, "This session's token budget is used up; start a new session to continue.",
          TurnOutcome.ERROR, WoErrorCode.BUDGET_EXHAUSTED, failedTurn, null);
    }
    try {
      LlmRoundResult r = ho1.degradedCall(new DegradedRequest(sessionId, agentClass, n, text, left));
      if (r instanceof LlmRoundResult.Refused refused) {
        return costedResult(n, UNAVAILABLE, TurnOutcome.ERROR, refused.code(), failedTurn, null);
      }
      if (!(r instanceof LlmRoundResult.Answered answer)) {
        throw new IllegalStateException("the degraded call answers or is refused; it returned " + r.kind());
      }
      return costedResult(n, answer.text(), TurnOutcome.DEGRADED, TurnWorkflowImpl.HO2_FAILED, failedTurn,
          answer.exchange());
    } catch (ActivityFailure e) {
      Optional<String> ledger = ledgerProblem(e).or(() -> ledgerProblem(f));
      if (ledger.isPresent() && Workflow.getVersion(LEDGER_UNWRITABLE, Workflow.DEFAULT_VERSION, 1) >= 1) {
        // Issue 20: a ledger database that was down says so (ledger_unavailable), not "unwritable".
        String code = FailureCode.LEDGER_UNAVAILABLE.is(RootCause.failureType(e))
            ? FailureCode.LEDGER_UNAVAILABLE.wire() : WoErrorCode.LEDGER_UNWRITABLE;
        return costedResult(n, "This turn could not run: " + ledger.get(), TurnOutcome.ERROR, code, failedTurn, null);
      }
      if (FailureCode.PROVIDER_UNREACHABLE.is(RootCause.failureType(e))) {
        // Issue 20: which endpoint and why (connection refused, unknown host), not "temporarily unavailable".
        return costedResult(n, "This turn could not run: " + RootCause.applicationMessage(e), TurnOutcome.ERROR,
            FailureCode.PROVIDER_UNREACHABLE.wire(), failedTurn, null);
      }
      return costedResult(n, UNAVAILABLE, TurnOutcome.ERROR, FailureCode.UNAVAILABLE.wire(), failedTurn, null);
    }
  }

  /** The ledger's own line when {@code failure} is a ledger that refused an append; else empty. */
  private static Optional<String> ledgerProblem(Throwable failure) {
    return WoErrorCode.isLedgerFailure(RootCause.failureType(failure))
        ? Optional.of(RootCause.applicationMessage(failure)) : Optional.empty();
  }

  /**
   * A session-made result (degraded, unavailable). From round2 on it reports what the failed turn
   * and the degraded call spent, tokens and cost, as the ledger holds them; before, the failed
   * turn's tokens only in the total and no cost.
   */
  private TurnResult costedResult(int n, String text, String outcome, String errorCode, WoCost failedTurn,
      LlmRoundResult.Exchange degraded) {
    List<String> ids = degraded == null ? List.of() : List.of(degraded.entryId());
    if (!round2) {
      return simpleResult(n, text, outcome, errorCode, failedTurn.totalTokens(),
          degraded == null ? 0 : degraded.inputTokens(), degraded == null ? 0 : degraded.outputTokens(), ids);
    }
    WoCost total = degraded == null ? failedTurn
        : failedTurn.plus(WoCost.llmCall(degraded.inputTokens(), degraded.outputTokens(), degraded.cost()));
    return new TurnResult(text, outcome, sessionId, n, false, List.of(), CostSummary.of(total, 0, 0), List.of(), ids,
        null, errorCode);
  }

  // ------------------------------------------------------------------ turn deadline

  /**
   * Runs the turn (its child workflow and, if that fails, the degraded call) against the agent's
   * turn deadline ({@code budget.turn_timeout_seconds}). When the deadline passes first, the
   * turn's scope is cancelled (the child workflow and whatever activity is in flight get a
   * cancellation request; the session does not wait for them) and the user gets an honest error
   * with what the turn spent, read from its EXCHANGE records.
   */
  private TurnResult runTurnWithDeadline(int n, String text, long remaining) {
    long limit = profile.turnTimeoutSeconds();
    if (limit <= 0) {
      return runTurn(n, text, remaining);
    }
    List<Promise<TurnResult>> work = new ArrayList<>(1);
    CancellationScope scope = Workflow.newCancellationScope(
        () -> work.add(Async.function(() -> runTurn(n, text, remaining))));
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
    String childId = WorkOrderIds.turnWorkflow(sessionId, n);
    WoCost spent = session.turnCost(sessionId, childId);
    Workflow.getLogger(SessionWorkflowImpl.class).warn("session {} turn {}: no answer within the turn deadline of {} s;"
        + " cancelled", sessionId, n, limit);
    return costedResult(n, deadlineMessage(limit), TurnOutcome.ERROR, TURN_DEADLINE_EXCEEDED, spent, null);
  }

  private String deadlineMessage(long limit) {
    return "No answer within this turn's deadline of " + Durations.words(limit) + " (agent " + agentClass
        + " budget.turn_timeout_seconds = " + limit + "): the model provider or a tool did not finish in time, and"
        + " the turn was cancelled. What it spent is counted. Try again; if the provider is slow rather than down,"
        + " an operator can raise budget.turn_timeout_seconds.";
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
          + " answering with the degraded call anyway", sessionId, n, RootCause.applicationMessage(e));
    }
  }

  private TurnResult simpleResult(int n, String text, String outcome, String errorCode, long alreadySpent,
      long in, long out, List<String> exchangeIds) {
    long total = alreadySpent + in + out;
    CostSummary c = new CostSummary(in, out, total, exchangeIds.size(), 0, 0.0, 0, 0);
    return new TurnResult(text, outcome, sessionId, n, false, List.of(), c, List.of(), exchangeIds, null, errorCode);
  }

  /** Whether an Update may go on: the profile is loaded and, from {@link #START_FIRST} 1 on, SESSION_START is on record. */
  private boolean readyForUpdates() {
    return profile != null && (!startFirst || startRecorded);
  }

  // ------------------------------------------------------------------ end / query

  @Override
  public void validateEnd() {
    if (ended) {
      throw rejected(endedProblem());
    }
  }

  @Override
  public SessionSummary end() {
    endRequested = true;
    activitySeq++;
    Workflow.await(this::readyForUpdates);
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
      if (!WoErrorCode.LEDGER_UNWRITABLE.equals(RootCause.failureType(e))
          || Workflow.getVersion(LEDGER_UNWRITABLE, Workflow.DEFAULT_VERSION, 1) < 1) {
        throw e;
      }
      endNotRecorded = "SESSION_END could not be written: " + RootCause.applicationMessage(e);
      ended = true;
      endReason = "end";
      endedAtMillis = Workflow.currentTimeMillis(); // one end time for every reader of the summary
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
            + " written ({}); trying again in {}", sessionId, reason, RootCause.innermostMessage(e),
            SESSION_END_RETRY_INTERVAL);
        Workflow.sleep(SESSION_END_RETRY_INTERVAL);
      }
    }
  }

  private void endSession(String reason) {
    ObjectNode meta = (ObjectNode) Json.tree(summary(reason));
    meta.put("tokens_remaining", tokensLeft());
    meta.put("runs", runs);
    session.record(new SessionEvent(EventType.SESSION_END.wire(), EventType.SESSION_END.wire(), sessionId, "ENDED",
        "session ended: " + reason, meta));
    ended = true;
    endReason = reason;
    endedAtMillis = Workflow.currentTimeMillis();
    activitySeq++;
  }

  private SessionSummary summary() {
    return summary(endReason);
  }

  private SessionSummary summary(String reason) {
    String endedAt = reason == null ? null
        : java.time.Instant.ofEpochMilli(endedAtMillis > 0 ? endedAtMillis : Workflow.currentTimeMillis()).toString();
    return new SessionSummary(sessionId, agentClass, turns, tokensUsed, profile.sessionTokenLimit(), cost, reason,
        degradedTurns, endNotRecorded, endedAt, endDetail(reason));
  }

  /** Why the session ended, in words a user can act on; null while it is open. */
  private String endDetail(String reason) {
    if (reason == null) {
      return null;
    }
    return switch (reason) {
      case "end" -> "ended by its user";
      case "idle_timeout" -> "no turn for " + Durations.words(profile.idleTimeoutSeconds());
      case "session_timeout" -> "its lifetime of " + Durations.words(profile.timeoutSeconds()) + " was reached";
      case TURN_LIMIT -> "all " + profile.turnLimit() + " turns its agent allows were used";
      default -> reason;
    };
  }

  private SessionState snapshot() {
    return new SessionState(sessionId, agentClass, profile, turns, tokensUsed, tokensLeft(), cost, lastOutcome, ended,
        endReason, startedAtMillis, runs, degradedTurns, approvals.undecided());
  }

  // ------------------------------------------------------------------ approvals (issue 15)

  @Override
  public void validateApprove(cp.model.ApprovalDecision decision) {
    approvals.refusal(decision, sessionId).ifPresent(p -> {
      throw new RefusedException(Refusal.APPROVAL_REFUSED, p.message(), p.refusal());
    });
  }

  /**
   * The first accepted decision claims the approval (every later one is refused, naming it), is
   * forwarded to the waiting turn, and is answered with what the turn recorded. The session
   * records nothing itself: APPROVAL_DECIDED is the turn's, so the record and the wait agree.
   */
  @Override
  public cp.model.ApprovalResult approve(cp.model.ApprovalDecision decision) {
    Optional<Refusal.Problem> refused = approvals.refusal(decision, sessionId);
    if (refused.isPresent()) {
      ApplicationFailure af = ApplicationFailure.newNonRetryableFailure(refused.get().message(),
          Refusal.APPROVAL_REFUSED, refused.get().refusal());
      af.setStackTrace(new StackTraceElement[0]);
      throw af;
    }
    cp.model.PendingApproval waiting = approvals.waiting(decision.approvalId()).orElseThrow();
    cp.model.ApprovalResult claim = approvals.claim(decision, Workflow.currentTimeMillis());
    try {
      Workflow.newExternalWorkflowStub(TurnWorkflow.class, waiting.turnWorkflowId()).approvalDecided(claim);
    } catch (RuntimeException e) {
      // The turn has gone (it ended meanwhile): turnEnded closes the approval, and the answer says so.
      Workflow.getLogger(SessionWorkflowImpl.class).warn("session {}: approval {} could not be forwarded to {}: {}",
          sessionId, claim.approvalId(), waiting.turnWorkflowId(), RootCause.innermostMessage(e));
    }
    Workflow.await(() -> approvals.recorded(claim.approvalId()).isPresent());
    return SessionApprovals.answer(approvals.recorded(claim.approvalId()).orElseThrow(), claim);
  }

  @Override
  public void approvalPending(cp.model.PendingApproval pending) {
    approvals.pending(pending, sessionId, runningTurnWorkflowId);
  }

  @Override
  public void approvalClosed(cp.model.ApprovalResult recorded) {
    approvals.closed(recorded);
  }

  @Override
  public SessionState state() {
    return profile == null ? null : snapshot();
  }
}
