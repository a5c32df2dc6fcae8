package cp.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho1Activities;
import cp.activities.Ho2Activities;
import cp.model.AgentProfile;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.ContractIds;
import cp.model.CostSummary;
import cp.model.FailureCode;
import cp.model.Json;
import cp.model.RootCause;
import cp.model.ToolCallSummary;
import cp.model.TurnInput;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WoConstraints;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import cp.model.WoState;
import cp.model.WoSummary;
import cp.model.WoType;
import cp.model.WorkOrder;
import cp.model.WorkOrderIds;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * HO2 for one turn. Step 2 (scoping): a classify work order, attention, a synthesize work order
 * with acceptance criteria. Step 4 (verification): the quality gate; a rejected answer is retried
 * as a new synthesize work order with tighter constraints (temperature 0, the gate's reasons as
 * feedback) up to the agent's max_retries, then escalated.
 *
 * <p>The workflow fails (and the session degrades) only when HO1 cannot reach a model at all
 * (gateway_error, or a contract/setup fault that no retry can fix); a model that answers badly
 * is the quality gate's business, and a spent budget ends the turn with a clear message.
 */
public class TurnWorkflowImpl implements TurnWorkflow {
  /** Codes after which HO2 cannot go on; the session degrades to a direct call. */
  static final Set<String> FATAL_CODES = Set.of(WoErrorCode.GATEWAY_ERROR, WoErrorCode.CONTRACT_NOT_FOUND,
      WoErrorCode.INPUT_SCHEMA_INVALID, WoErrorCode.LEDGER_UNWRITABLE);
  /** Error type of the failure that makes the session degrade. */
  public static final String HO2_FAILED = FailureCode.HO2_FAILED.wire();
  /** Temperature of a retry after the gate rejected: the most conservative setting. */
  static final double RETRY_TEMPERATURE = 0.0;
  /** A classify work order answers in one round and never uses tools. */
  static final int CLASSIFY_TURN_LIMIT = 1;
  /**
   * Version marker: from version 1 on, HO1's round trips prepare and finish their work orders
   * (no prepare or finish local activity on the common path, see {@link WorkOrderRunner}), and an
   * accepted answer's WO_QUALITY_GATE and WO_CHAIN_COMPLETE are written in one step.
   */
  static final String LEAN_TURN = "lean-turn";
  static final int LEAN_TURN_VERSION = 1;
  /**
   * Version marker of issue 11's turn changes: a spent work-order cap is reported as the work
   * order's (not the session's) budget, and a turn cancelled by the session's turn deadline
   * records WO_CHAIN_COMPLETE with outcome {@code turn_deadline_exceeded} before it ends.
   */
  static final String ROUND2_TURN = "round2-turn";
  /** Issue 23 ({@link SessionVersions#DOLLAR_BUDGETS}): from version 1 on, work orders carry the turn's dollar budgets. */
  static final String DOLLAR_BUDGETS = SessionVersions.DOLLAR_BUDGETS;
  static final int ROUND2_VERSION = 1;
  /** Issue 21: a work order's first LLM round writes its WO_PLANNED and WO_DISPATCHED, not a local activity. */
  static final String PLAN_IN_ROUND = "plan-in-round";
  static final int PLAN_IN_ROUND_VERSION = 1;

  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);
  private final Ho1Activities ho1Local = Workflow.newLocalActivityStub(Ho1Activities.class);
  private final Ho2Activities ho2Local = Workflow.newLocalActivityStub(Ho2Activities.class);
  private final cp.activities.ApprovalActivities approvalsLocal =
      Workflow.newLocalActivityStub(cp.activities.ApprovalActivities.class);
  private final cp.activities.ApprovalLookupActivities approvalLookup =
      Workflow.newActivityStub(cp.activities.ApprovalLookupActivities.class, ApprovalGate.LOOKUP_OPTIONS);
  /** Issue 15: the durable pause before tool calls that need a person; set when the turn starts. */
  private ApprovalGate approvals;

  private final List<WorkOrder> chain = new ArrayList<>();
  private final List<String> exchangeIds = new ArrayList<>();
  private final List<ToolCallSummary> toolCalls = new ArrayList<>();
  private WoCost spent = WoCost.ZERO;
  private String step = "starting";
  /** Issue 24: the turn's events and streamed reply (empty before version {@code live-turn} 1). */
  private final LiveTurn live = new LiveTurn();

  @Override
  public void replyStream(cp.model.ReplyBatch batch) {
    live.accept(batch);
  }

  @Override
  public cp.model.TurnEventPage events(long fromSeq) {
    return live.events(fromSeq);
  }

  /** The turn's step, for {@code progress} and (from {@code live-turn} 1) its events. */
  private void step(String s) {
    step = s;
    live.step(s);
  }

  @Override
  public String progress() {
    return step;
  }

  @Override
  public void approvalDecided(cp.model.ApprovalResult decision) {
    if (approvals != null) {
      approvals.onDecision(decision);
    }
  }

  @Override
  public cp.model.TurnApprovals approvals() {
    return approvals == null ? cp.model.TurnApprovals.NONE : approvals.snapshot();
  }

  private boolean round2;
  private boolean planInRound;
  /** Issue 23: the turn's dollar budgets (off unless the session handed them over). */
  private TurnDollars dollars;

  @Override
  public TurnResult run(TurnInput in) {
    TurnOrigin.refuseUnlessChildOfItsSession(in);
    boolean lean = Workflow.getVersion(LEAN_TURN, Workflow.DEFAULT_VERSION, LEAN_TURN_VERSION) >= LEAN_TURN_VERSION;
    round2 = Workflow.getVersion(ROUND2_TURN, Workflow.DEFAULT_VERSION, ROUND2_VERSION) >= ROUND2_VERSION;
    if (Workflow.getVersion(LiveTurn.LIVE_TURN, Workflow.DEFAULT_VERSION, LiveTurn.LIVE_TURN_VERSION)
        >= LiveTurn.LIVE_TURN_VERSION) {
      live.start(Workflow.getInfo().getWorkflowId());
    }
    planInRound = lean && Workflow.getVersion(PLAN_IN_ROUND, Workflow.DEFAULT_VERSION, PLAN_IN_ROUND_VERSION)
        >= PLAN_IN_ROUND_VERSION;
    Ho2EventLog log = new Ho2EventLog(ho2Local, in.profile().agentClass(), in.sessionId(), in.turn());
    if (!round2) {
      return steps(in, log, lean);
    }
    try {
      return steps(in, log, lean);
    } catch (RuntimeException e) {
      // A cancelled activity surfaces as a failed work order, a cancelled timer or call as
      // CanceledFailure: either way, once the session cancelled the turn, say so and stop.
      if (e instanceof CanceledFailure || CancellationScope.current().isCancelRequested()) {
        recordCancelled(log);
      }
      throw e;
    }
  }

  /**
   * The session cancels a turn only when its deadline passed: the chain so far is closed with
   * that outcome (in a scope of its own, since the turn's is cancelled), so HO2's ledger says how
   * the turn ended.
   */
  private void recordCancelled(Ho2EventLog log) {
    Workflow.newDetachedCancellationScope(() -> {
      try {
        log.chainComplete(chain, false, List.of(), SessionWorkflowImpl.TURN_DEADLINE_EXCEEDED);
      } catch (ActivityFailure e) {
        Workflow.getLogger(TurnWorkflowImpl.class).warn("turn cancelled at its deadline; WO_CHAIN_COMPLETE could"
            + " not be recorded: {}", RootCause.applicationMessage(e));
      }
    }).run();
  }

  private TurnResult steps(TurnInput in, Ho2EventLog log, boolean lean) {
    AgentProfile p = in.profile();
    dollars = TurnDollars.of(in, lean && in.sessionUsdSpent() != null
        && Workflow.getVersion(DOLLAR_BUDGETS, Workflow.DEFAULT_VERSION, 1) >= 1);
    approvals = new ApprovalGate(approvalsLocal, approvalLookup, p, in.sessionId(), in.turn(), this::step);
    WorkOrderRunner runner = new WorkOrderRunner(ho1, ho1Local, this::step, lean, approvals::decide, live)
        .forTenant(in.tenant());
    int seq = 0;

    // Step 2a: classify.
    step("classify");
    ObjectNode classifyInput = Json.object().put("user_input", in.userMessage());
    WorkOrder classify = plan(in, ++seq, WoType.CLASSIFY, classifyInput,
        dollars.apply(new WoConstraints(ContractIds.CLASSIFY, woBudget(p, in), CLASSIFY_TURN_LIMIT,
            p.woTimeoutSeconds(), List.of(), null, null), spent.cost()));
    WorkOrder classified = execute(runner, log, classify, p);
    if (isBudgetFailure(classified)) {
      return budgetExhausted(in, log, classified);
    }
    failTurnIfFatal(classified);
    JsonNode classification = classified.state() == WoState.COMPLETED && classified.outputResult() != null
        ? classified.outputResult()
        : SynthesizeInput.unknownClassification();

    // Step 2b: attention.
    step("attention");
    AttentionResult context = ho2Local.attend(new AttentionRequest(in.sessionId(), p.agentClass(),
        p.attentionTemplateId(), in.turn(), in.userMessage()));

    // Step 2c + 4: synthesize, gate, retry.
    List<String> feedback = List.of();
    GateDecision decision = null;
    for (int attempt = 0; attempt <= p.maxRetries(); attempt++) {
      if (remaining(in) <= 0) {
        return budgetExhausted(in, log, null);
      }
      if (dollars.sessionSpent(spent.cost())) {
        return dollarsExhausted(in, log, null);
      }
      step(attempt == 0 ? "synthesize" : "synthesize (retry " + attempt + ")");
      ObjectNode input = SynthesizeInput.of(in.userMessage(), classification, context, feedback, p);
      WoConstraints constraints = dollars.apply(new WoConstraints(ContractIds.SYNTHESIZE, woBudget(p, in),
          p.woTurnLimit(), p.woTimeoutSeconds(), p.toolIds(), null, attempt == 0 ? null : RETRY_TEMPERATURE),
          spent.cost());
      WorkOrder synth = execute(runner, log, plan(in, ++seq, WoType.SYNTHESIZE, input, constraints), p);
      if (isBudgetFailure(synth)) {
        return budgetExhausted(in, log, synth);
      }
      failTurnIfFatal(synth);
      step("quality gate");
      decision = QualityGate.verify(synth, p.maxResponseChars());
      if (!decision.accepted()) {
        live.rejected();
      }
      if (lean && decision.accepted()) {
        String hash = log.qualityGateAndChainComplete(synth, decision, attempt + 1, chain, TurnOutcome.SUCCESS);
        return result(in, decision.responseText(), TurnOutcome.SUCCESS, true, hash, null);
      }
      String traceHash = log.qualityGate(synth, decision, attempt + 1);
      if (decision.accepted()) {
        String chainHash = log.chainComplete(chain, false, List.of(), TurnOutcome.SUCCESS);
        return result(in, decision.responseText(), TurnOutcome.SUCCESS, true, chainHash != null ? chainHash : traceHash,
            null);
      }
      feedback = decision.reasons();
    }
    String chainHash = log.chainComplete(chain, true, feedback, TurnOutcome.ESCALATED);
    String text = decision != null && decision.responseText() != null && !decision.responseText().isBlank()
        ? truncate(decision.responseText(), p.maxResponseChars())
        : "I could not produce an answer that passed the quality gate after " + (p.maxRetries() + 1)
            + " attempts (" + String.join("; ", feedback) + "). The attempt is recorded for review; please rephrase"
            + " or try again.";
    return result(in, text, TurnOutcome.ESCALATED, false, chainHash, FailureCode.QUALITY_GATE_REJECTED.wire());
  }

  private WorkOrder plan(TurnInput in, int seq, WoType type, ObjectNode input, WoConstraints constraints) {
    return WorkOrder.planned(WorkOrderIds.workOrder(in.sessionId(), in.turn(), seq), type, in.sessionId(),
        in.profile().agentClass(), input, constraints, now());
  }

  private WorkOrder execute(WorkOrderRunner runner, Ho2EventLog log, WorkOrder planned, AgentProfile p) {
    return run(runner, planned, p, plan(log, planned));
  }

  /**
   * WO_PLANNED and WO_DISPATCHED of a work order about to run: written here (a local activity), or
   * from {@link #PLAN_IN_ROUND} on left to its first round where it has one (returns true then).
   */
  private boolean plan(Ho2EventLog log, WorkOrder planned) {
    if (planInRound && WorkOrderRunner.preparesInRound(planned)) {
      log.inChain(planned);
      return true;
    }
    log.plannedAndDispatched(planned);
    return false;
  }

  /** Runs a planned work order and adds what it produced to the turn's; {@code recordPlan}: see {@link #plan}. */
  private WorkOrder run(WorkOrderRunner runner, WorkOrder planned, AgentProfile p, boolean recordPlan) {
    WorkOrderRunner.Outcome out = runner.run(planned.transitionTo(WoState.DISPATCHED), p.agentClass(), recordPlan);
    chain.add(out.workOrder());
    exchangeIds.addAll(out.exchangeIds());
    toolCalls.addAll(out.toolCalls());
    spent = spent.plus(out.workOrder().cost());
    return out.workOrder();
  }

  private long remaining(TurnInput in) {
    return in.sessionTokensRemaining() - spent.totalTokens();
  }

  /**
   * The token budget a new work order gets: what is left of the tightest of the budgets above it,
   * the session's (what the turn was given, less what it spent) and the work order's own cap
   * ({@code budget.wo_token_budget}).
   */
  private long woBudget(AgentProfile p, TurnInput in) {
    return tightestBudget(p, in).left();
  }

  private Budget tightestBudget(AgentProfile p, TurnInput in) {
    long sessionSpent = p.sessionTokenLimit() - Math.max(0, remaining(in));
    return Budget.tightest(List.of(Budget.workOrderTokens(p.woTokenBudget(), 0),
        Budget.sessionTokens(p.sessionTokenLimit(), sessionSpent)));
  }

  /**
   * Which budget a work order that failed with budget_exhausted ran out of: its own cap, unless it
   * was given less than that because the session had less left (then the session's ran out).
   */
  private static Budget.Level exhausted(WorkOrder failed, AgentProfile p) {
    return failed.constraints().tokenBudget() < p.woTokenBudget() ? Budget.Level.SESSION : Budget.Level.WORK_ORDER;
  }

  private static boolean isBudgetFailure(WorkOrder wo) {
    return wo.state() == WoState.FAILED && WoErrorCode.BUDGET_EXHAUSTED.equals(wo.error().code());
  }

  private static void failTurnIfFatal(WorkOrder wo) {
    if (wo.state() == WoState.FAILED && WoErrorCode.LEDGER_UNWRITABLE.equals(wo.error().code())) {
      // The ledger's own line (which ledger, what to run) is what the session must pass on.
      throw FailureCode.LEDGER_UNWRITABLE.failure(wo.error().message());
    }
    if (wo.state() == WoState.FAILED && FATAL_CODES.contains(wo.error().code())) {
      throw FailureCode.HO2_FAILED.failure("HO2 cannot continue: work order " + wo.woId() + " failed with "
          + wo.error().code() + ": " + wo.error().message());
    }
  }

  /**
   * Ends the turn on a spent budget, saying which one: the session's (nothing more can be spent in
   * this session), or, from {@link #ROUND2_TURN} on, one work order's own cap
   * ({@code budget.wo_token_budget}) while the session still has tokens left.
   *
   * @param failed the work order that failed with budget_exhausted, or null (the session's
   *     budget was spent before the next one could start)
   */
  private TurnResult budgetExhausted(TurnInput in, Ho2EventLog log, WorkOrder failed) {
    if (failed != null && failed.error().refusalKind().unpriced()) {
      // Issue 23: a model with no price: no cap can be kept for it, and only a price fixes that.
      String hash = log.chainComplete(chain, false, List.of(), WoErrorCode.BUDGET_EXHAUSTED);
      return result(in, TurnDollars.unpriced(failed), TurnOutcome.ERROR, false, hash, WoErrorCode.BUDGET_EXHAUSTED);
    }
    if (failed != null && failed.error().refusalKind().tenant()) {
      // Issue 23: the tenant's daily or monthly cap, with when it resets; never a session's or work order's advice.
      String hash = log.chainComplete(chain, false, List.of(), WoErrorCode.BUDGET_EXHAUSTED);
      return result(in, "This turn stopped before it had an answer: " + failed.error().message() + ". Try again after"
          + " the reset, or have an operator raise the tenant's cap (" + cp.model.UsdBudgets.TENANTS_FILE + ").",
          TurnOutcome.ERROR, false, hash, WoErrorCode.BUDGET_EXHAUSTED);
    }
    if (dollars.refusedFor(failed)) {
      return dollarsExhausted(in, log, failed);
    }
    String hash = log.chainComplete(chain, false, List.of(), WoErrorCode.BUDGET_EXHAUSTED);
    long limit = in.profile().sessionTokenLimit();
    long used = limit - remaining(in);
    if (round2 && failed != null && remaining(in) > 0) {
      // Issue 20: name the budget that ran out; the work order's advice only when its own cap did.
      String text = exhausted(failed, in.profile()) == Budget.Level.WORK_ORDER
          ? TurnBudgetMessages.workOrder(in.profile(), failed, remaining(in))
          : TurnBudgetMessages.session(in.profile(), failed, remaining(in));
      return result(in, text, TurnOutcome.ERROR, false, hash, WoErrorCode.BUDGET_EXHAUSTED);
    }
    return result(in, "This session's token budget is used up (" + Math.max(0, used) + " of " + limit
        + " tokens). Start a new session to continue.", TurnOutcome.ERROR, false, hash, WoErrorCode.BUDGET_EXHAUSTED);
  }

  /** Issue 23: a dollar budget stopped the turn ({@code failed} null: the session's was spent before a work order). */
  private TurnResult dollarsExhausted(TurnInput in, Ho2EventLog log, WorkOrder failed) {
    String hash = log.chainComplete(chain, false, List.of(), WoErrorCode.BUDGET_EXHAUSTED);
    return result(in, dollars.message(failed, spent.cost()), TurnOutcome.ERROR, false, hash,
        WoErrorCode.BUDGET_EXHAUSTED);
  }

  private TurnResult result(TurnInput in, String text, String outcome, boolean gatePassed, String traceHash,
      String errorCode) {
    step = "done";
    live.done(text, outcome);
    long remaining = Math.max(0, remaining(in));
    long used = in.profile().sessionTokenLimit() - remaining;
    return new TurnResult(text, outcome, in.sessionId(), in.turn(), gatePassed,
        chain.stream().map(WorkOrder::summary).toList(), CostSummary.of(spent, used, remaining), toolCalls, exchangeIds,
        traceHash, errorCode);
  }

  private static String truncate(String s, int max) {
    return max > 0 && s.length() > max ? s.substring(0, max) + "…" : s;
  }

  private static String now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis()).toString();
  }
}
