package cp.workflows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho1Activities;
import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.ApprovalClaim;
import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.Json;
import cp.model.PendingApproval;
import cp.model.Refusal;
import cp.model.RefusedException;
import cp.model.SessionEvent;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TenantRoom;
import cp.model.TokenEstimates;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.workflow.DynamicQueryHandler;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The session host on Temporal, as a state machine: <b>start</b> (the start contract, the agent's
 * profile, SESSION_START) → <b>open</b> (turns arrive as Updates, are admitted or refused, and run
 * one at a time as child TurnWorkflows; approvals are decided in between) → <b>end</b> (asked,
 * idle, lifetime or turn limit: SESSION_END) — or <b>continue as new</b> at a turn boundary,
 * carrying its state.
 *
 * <p>Each step's decisions live in a class named for them: {@link StartContract} (is this a
 * session's start?), {@link TurnAdmission} (may this turn run now?), {@link SessionTurnRunner}
 * and {@link Degradation} (run it under its deadline; what if its workflow fails?),
 * {@link SessionApprovalDesk} (which decisions stand?), {@link SessionAccount} (what has the session
 * used?), {@link SessionLifecycle} (where in its life is it, when does it expire?) and
 * {@link SessionEnding} (SESSION_END and why). This class wires them to Temporal's entry points.
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
  /** SESSION_END's end_reason when the last turn the agent allows has completed. */
  public static final String TURN_LIMIT = SessionEnding.TURN_LIMIT;
  /** A turn's error_code when the agent's turn deadline passed before it had an answer. */
  public static final String TURN_DEADLINE_EXCEEDED = SessionTurnRunner.TURN_DEADLINE_EXCEEDED;
  /** The queries a session answers, for the refusal of an unknown one. */
  static final String KNOWN_QUERIES = "state";
  /** Failure type of a Query the session does not know. */
  static final String UNKNOWN_QUERY = FailureCode.UNKNOWN_QUERY.wire();
  /** The Updates a session takes, for the refusal of an unknown one. */
  static final String KNOWN_UPDATES = String.join(", ", TURN, END, APPROVE);

  private final SessionActivities session = Workflow.newLocalActivityStub(SessionActivities.class);
  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);
  private final WorkflowLock turnLock = Workflow.newWorkflowLock();
  private final SessionLifecycle life = new SessionLifecycle();
  private final SessionAccount account = new SessionAccount();
  private final TurnAdmission admission = new TurnAdmission(life, account);
  private final SessionEnding ending = new SessionEnding(session, life, account);
  /** Issues 15 and 20: the approvals the running turn waits for, the approve Update, the turn's wake-ups. */
  private final SessionApprovalDesk approvals = new SessionApprovalDesk(life::sessionId);
  /** Set once the run knows its versions (before any Update may go on). */
  private SessionTurnRunner turns;
  /** Whether this run has the {@link SessionVersions#ROUND2_SESSION} behaviour. */
  private boolean round2;
  private int continueAsNewAfterTurns;
  /** The running turn's workflow id, while a turn runs; the only turn whose approvals the session takes. */
  private String runningTurnWorkflowId;
  /** Issue 23: whose session it is (the start input's tenant, else {@code default}). */
  private String tenant;
  /** Whether this run has the {@link SessionVersions#TENANT} behaviour (CpTenant among its own search attributes). */
  private boolean tenantAttribute;
  /** Whether this run has {@link SessionVersions#TENANT_ADMISSION}: its tenant's caps are asked before each turn. */
  private boolean tenantAdmission;
  /** Whether this run has {@link SessionVersions#TENANT_CAPPED}: a new session learns whether its tenant has caps. */
  private boolean tenantCapsKnown;
  /** Whether this run has the {@link SessionVersions#DOLLAR_BUDGETS} behaviour. */
  private boolean dollars;

  // ------------------------------------------------------------------ the life of a session

  @Override
  public SessionSummary run(SessionInput in) {
    Workflow.registerListener((DynamicQueryHandler) (queryType, args) -> {
      throw new RefusedException(UNKNOWN_QUERY, "unknown query '" + queryType + "' (known: " + KNOWN_QUERIES + ")",
          null);
    });
    Workflow.registerListener(new UnknownUpdates(KNOWN_UPDATES));
    round2 = Workflow.getVersion(SessionVersions.ROUND2_SESSION, Workflow.DEFAULT_VERSION,
        SessionVersions.ROUND2_VERSION) >= SessionVersions.ROUND2_VERSION;
    boolean startFirst = Workflow.getVersion(SessionVersions.START_FIRST, Workflow.DEFAULT_VERSION, 1) >= 1;
    boolean defend = Workflow.getVersion(SessionVersions.CONTRACT_DEFENCE, Workflow.DEFAULT_VERSION, 1) >= 1;
    tenantAttribute = Workflow.getVersion(SessionVersions.TENANT, Workflow.DEFAULT_VERSION, 1) >= 1;
    tenant = in.tenantOrDefault();
    dollars = Workflow.getVersion(SessionVersions.DOLLAR_BUDGETS, Workflow.DEFAULT_VERSION, 1) >= 1;
    tenantAdmission = Workflow.getVersion(SessionVersions.TENANT_ADMISSION, Workflow.DEFAULT_VERSION, 1) >= 1;
    tenantCapsKnown = Workflow.getVersion(SessionVersions.TENANT_CAPPED, Workflow.DEFAULT_VERSION, 1) >= 1;
    admission.checkDollars(dollars);
    approvals.byQuery(); // this run's approval-by-query version, asked before any signal can ask it
    if (defend) {
      StartContract.refuseBadStart(in);
    }
    life.identify(in.sessionId(), in.agentClass(), startFirst);
    SessionResults results = new SessionResults(in.sessionId(), round2);
    turns = new SessionTurnRunner(session, life, results, new Degradation(session, ho1, life, results, round2, tenant),
        round2, id -> runningTurnWorkflowId = id, tenant);
    continueAsNewAfterTurns = in.continueAsNewAfterTurns() > 0 ? in.continueAsNewAfterTurns()
        : DEFAULT_CONTINUE_AS_NEW_TURNS;
    start(in.carried(), defend);
    Promise<Void> watcher = approvals.watch(() -> runningTurnWorkflowId);
    if (defend) {
      setOwnSearchAttributes();
    }
    while (!life.isEnded()) {
      if (expiredOrDone()) {
        break;
      }
      awaitActivityOrExpiry();
      if (continueAsNewDue()) {
        Workflow.await(Workflow::isEveryHandlerFinished);
        approvals.stopWatching(watcher);
        Workflow.continueAsNew(new SessionInput(life.sessionId(), life.agentClass(), snapshot(),
            continueAsNewAfterTurns).withTenant(tenant));
      }
    }
    Workflow.await(Workflow::isEveryHandlerFinished);
    approvals.stopWatching(watcher);
    return ending.summary();
  }

  /** Start: a new session loads its profile and writes SESSION_START; a continued one takes over its state. */
  private void start(SessionState carried, boolean defend) {
    if (carried == null) {
      AgentProfile profile = defend ? StartContract.profileOrRefuse(this::loadProfile, life.agentClass())
          : loadProfile();
      life.profileLoaded(profile, Workflow.currentTimeMillis(), 1);
      ObjectNode meta = Json.object().put("session_id", life.sessionId()).put("agent_class", life.agentClass())
          .put("agent_id", profile.agentId()).put("session_token_limit", profile.sessionTokenLimit())
          .put("turn_limit", profile.turnLimit()).put("tenant", tenant);
      session.record(new SessionEvent(EventType.SESSION_START.wire(), EventType.SESSION_START.wire(),
          life.sessionId(), "STARTED", "session started for " + life.agentClass(), meta));
    } else {
      life.profileLoaded(carried.profile(), carried.startedAtMillis(), carried.runs() + 1);
      account.carry(carried);
    }
    life.opened(Workflow.currentTimeMillis());
  }

  /** The agent's profile; from {@link SessionVersions#TENANT_CAPPED} on, saying whether the tenant has caps. */
  private AgentProfile loadProfile() {
    return tenantCapsKnown ? session.profileForTenant(life.agentClass(), tenant) : session.profile(life.agentClass());
  }

  /**
   * Ends the session when it expired or its last allowed turn is done, once no turn is queued and
   * no {@code end} is on its way; true when it did.
   */
  private boolean expiredOrDone() {
    long waitMillis = life.millisUntilExpiry(Workflow.currentTimeMillis());
    boolean lastTurnDone = lastAllowedTurnDone();
    if ((waitMillis > 0 && !lastTurnDone) || life.pendingTurns() != 0 || life.isEndRequested()) {
      return false;
    }
    turnLock.lock();
    try {
      if (!life.isEnded()) {
        ending.endOnExpiry(lastTurnDone ? SessionEnding.TURN_LIMIT : life.expiryReason(Workflow.currentTimeMillis()));
      }
    } finally {
      turnLock.unlock();
    }
    return true;
  }

  /** Sleeps until something happens (a turn, an end) or the session would expire. */
  private void awaitActivityOrExpiry() {
    long waitMillis = life.millisUntilExpiry(Workflow.currentTimeMillis());
    int seen = life.activitySeq();
    if (waitMillis == Long.MAX_VALUE) {
      Workflow.await(() -> life.isEnded() || life.activitySeq() != seen);
    } else {
      Workflow.await(Duration.ofMillis(Math.max(1, waitMillis)), () -> life.isEnded() || life.activitySeq() != seen);
    }
  }

  /**
   * Seed 003 test 22: the session ends when its turn limit is reached, that is when the last
   * allowed turn has completed (from {@link SessionVersions#ROUND2_SESSION} on; before, later turns
   * were only refused).
   */
  private boolean lastAllowedTurnDone() {
    AgentProfile profile = life.profile();
    return round2 && profile != null && profile.turnLimit() > 0 && account.turns() >= profile.turnLimit();
  }

  /** Continue as new between turns: after the configured turns of this run, or when Temporal suggests it. */
  private boolean continueAsNewDue() {
    return !life.isEnded() && !life.isEndRequested() && life.pendingTurns() == 0 && !lastAllowedTurnDone()
        && (account.turnsThisRun() >= continueAsNewAfterTurns || Workflow.getInfo().isContinueAsNewSuggested());
  }

  /**
   * The session's search attributes, set by the session itself so that a session any client
   * started can be found: only those its start did not set (or set otherwise), so a start that
   * set them all costs no command.
   */
  private void setOwnSearchAttributes() {
    var current = Workflow.getTypedSearchAttributes();
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>(4);
    if (!life.sessionId().equals(current.get(CpSearchAttributes.SESSION_ID))) {
      updates.add(CpSearchAttributes.SESSION_ID.valueSet(life.sessionId()));
    }
    if (!life.agentClass().equals(current.get(CpSearchAttributes.AGENT_CLASS))) {
      updates.add(CpSearchAttributes.AGENT_CLASS.valueSet(life.agentClass()));
    }
    if (!Long.valueOf(account.turns()).equals(current.get(CpSearchAttributes.TURN))) {
      updates.add(CpSearchAttributes.TURN.valueSet((long) account.turns()));
    }
    if (tenantAttribute && !tenant.equals(current.get(CpSearchAttributes.TENANT))) {
      updates.add(CpSearchAttributes.TENANT.valueSet(tenant));
    }
    if (!updates.isEmpty()) {
      Workflow.upsertTypedSearchAttributes(updates.toArray(SearchAttributeUpdate<?>[]::new));
    }
  }

  // ------------------------------------------------------------------ turn

  @Override
  public void validateTurn(TurnRequest request) {
    admission.refusal(request, life.pendingTurns(), true).ifPresent(p -> {
      throw TurnAdmission.rejected(p);
    });
  }

  @Override
  public TurnResult turn(TurnRequest request) {
    life.turnQueued();
    Workflow.await(life::readyForUpdates);
    turnLock.lock();
    try {
      // The argument's shape is the validator's alone: a turn accepted before issue 12 with an extra
      // field must replay as it ran.
      Optional<Refusal.Problem> refused = admission.refusal(request, life.pendingTurns() - 1, false);
      if (refused.isPresent()) {
        throw TurnAdmission.refused(refused.get());
      }
      // A tenant known to have no cap can never be refused here: no local activity (issue 21, B7).
      if (tenantAdmission && !Boolean.FALSE.equals(life.profile().tenantCapped())) {
        refuseForTheTenant(request.text());
      }
      int n = account.turns() + 1;
      long remaining = account.remaining(life.profile().sessionTokenLimit());
      // Issue 23: the turn's work orders reserve against the session's dollars left (what it spent so far).
      Double usdSpent = dollars && life.profile().hasUsdCap() ? account.cost() : null;
      TurnResult r = turns.run(n, request.text(), remaining, usdSpent);
      account.count(n, r);
      Workflow.upsertTypedSearchAttributes(CpSearchAttributes.TURN.valueSet((long) n));
      return r.withCost(r.costSummary().withSession(account.tokensUsed(), tokensLeft()));
    } finally {
      if (runningTurnWorkflowId != null) {
        approvals.turnEnded(runningTurnWorkflowId);
        runningTurnWorkflowId = null;
      }
      life.turnDone(Workflow.currentTimeMillis());
      turnLock.unlock();
    }
  }

  /** Issue 23: a turn its tenant's daily or monthly cap cannot pay for is refused before any provider call. */
  private void refuseForTheTenant(String text) {
    TenantRoom room = session.tenantRoom(new TenantRoom.Request(tenant, life.agentClass(),
        TokenEstimates.ofText(text)));
    if (room.refused()) {
      throw TurnAdmission.refused(new Refusal.Problem("session " + life.sessionId() + " cannot pay for this turn: "
          + room.message(), Refusal.usdBudgetExhausted(room.level(), room.capUsd(), room.spentUsd(), room.neededUsd(),
          room.resets())));
    }
  }

  // ------------------------------------------------------------------ end / query

  @Override
  public void validateEnd() {
    if (life.isEnded()) {
      throw TurnAdmission.rejected(life.endedProblem());
    }
  }

  @Override
  public SessionSummary end() {
    life.endRequested();
    Workflow.await(life::readyForUpdates);
    turnLock.lock();
    try {
      if (!life.isEnded()) {
        ending.endAsAsked();
      }
    } finally {
      turnLock.unlock();
    }
    return ending.summary();
  }

  @Override
  public SessionState state() {
    return life.profile() == null ? null : snapshot();
  }

  private SessionState snapshot() {
    return new SessionState(life.sessionId(), life.agentClass(), life.profile(), account.turns(),
        account.tokensUsed(), tokensLeft(), account.cost(), account.lastOutcome(), life.isEnded(), life.endReason(),
        life.startedAtMillis(), life.runs(), account.degradedTurns(), approvals.undecided());
  }

  private long tokensLeft() {
    return account.tokensLeft(life.profile().sessionTokenLimit());
  }

  // ------------------------------------------------------------------ approvals (issues 15 and 20)

  @Override
  public void validateApprove(ApprovalDecision decision) {
    approvals.validate(decision, life.sessionId(), life.profile());
  }

  @Override
  public ApprovalResult approve(ApprovalDecision decision) {
    return approvals.approve(decision, life.sessionId(), life.profile());
  }

  @Override
  public void approvalPending(PendingApproval pending) {
    approvals.pendingSignal(pending, life.sessionId(), runningTurnWorkflowId);
  }

  @Override
  public void approvalClosed(ApprovalResult recorded) {
    approvals.closedSignal(recorded);
  }

  @Override
  public ApprovalClaim approvalClaim(String approvalId) {
    return approvals.claimOf(approvalId);
  }
}
