package cp.workflows;

import cp.activities.Ho1Activities;
import cp.model.EntryRef;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.PreparedWorkOrder;
import cp.model.RootCause;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolCallSummary;
import cp.model.ToolUse;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import cp.model.WoFinishRequest;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import io.temporal.failure.ActivityFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * HO1's tool loop as deterministic workflow code: the decisions here, the I/O in activities.
 *
 * <p>For a dispatched work order: prepare (local activity), then rounds of one gateway call each
 * (an activity), each followed by the tool calls it asked for (one activity per call), until the
 * model answers without tools; then finish (local activity). Budget is law: before every round
 * the work order must have tokens left, and the provider's reported tokens are debited after.
 * A tool_use answer in the last allowed round fails the work order with turn_limit_exceeded
 * instead of running tools nobody will read.
 *
 * <p>Lean mode (turn workflows from version {@code lean-turn} 1 on) asks the round trips to
 * prepare and finish the work order themselves ({@link LlmRoundRequest}): a work order that ends
 * in an answer then costs its round trips and no local activity, and the history records the
 * outcome instead of the whole work order twice more. Prepare and finish still run as local
 * activities where no round trip can do them (a budget spent before the first round, a round
 * that failed, a tool that could not run, the turn limit). The classic mode stays for the
 * histories recorded before.
 */
public final class WorkOrderRunner {
  private final Ho1Activities remote;
  private final Ho1Activities local;
  private final java.util.function.Consumer<String> onStep;
  private final boolean lean;
  private final ToolApprover approver;

  /** What running a work order produced, beyond the work order itself. */
  public record Outcome(WorkOrder workOrder, String finalText, List<String> exchangeIds, List<ToolCallSummary> toolCalls) {
    public Outcome {
      exchangeIds = List.copyOf(exchangeIds);
      toolCalls = List.copyOf(toolCalls);
    }
  }

  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local) {
    this(remote, local, step -> { }, false);
  }

  /**
   * {@code onStep} hears each step ("synthesize round 2", "tool list_packages") for progress
   * queries. With {@code lean}, the round trips prepare and finish the work order (see the class
   * comment).
   */
  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local, java.util.function.Consumer<String> onStep,
      boolean lean) {
    this(remote, local, onStep, lean, ToolApprover.NONE);
  }

  /** As above; {@code approver} decides, before each tool call, whether a person must allow it (issue 15). */
  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local, java.util.function.Consumer<String> onStep,
      boolean lean, ToolApprover approver) {
    this.remote = remote;
    this.local = local;
    this.onStep = onStep;
    this.lean = lean;
    this.approver = approver;
  }

  /** Decides whether a tool call may run (issue 15): null when it needs no person's decision. */
  @FunctionalInterface
  public interface ToolApprover {
    ToolApprover NONE = (woId, agentClass, use, round, index) -> null;

    cp.model.ApprovalResult decide(String woId, String agentClass, ToolUse use, int round, int index);
  }

  /** Runs a work order in state dispatched to a terminal state. */
  public Outcome run(WorkOrder dispatched, String agentClass) {
    if (dispatched.state() != WoState.DISPATCHED) {
      throw new IllegalStateException("work order " + dispatched.woId() + " must be dispatched, is "
          + dispatched.state().wireName());
    }
    List<String> exchangeIds = new ArrayList<>();
    List<ToolCallSummary> toolCalls = new ArrayList<>();
    WorkOrder wo = dispatched.transitionTo(WoState.EXECUTING);
    boolean leanRounds = lean && wo.woType() != WoType.TOOL_CALL && wo.tokensRemaining() > 0;
    String promptRef = null;
    if (!leanRounds) {
      PreparedWorkOrder prepared = local.prepare(dispatched);
      if (!prepared.ok()) {
        return finish(wo, null, prepared.errorCode(), prepared.errorMessage(), exchangeIds, toolCalls);
      }
      promptRef = prepared.promptRef();
    }
    if (wo.woType() == WoType.TOOL_CALL) {
      return runSingleTool(wo, agentClass, exchangeIds, toolCalls);
    }
    List<EntryRef> transcript = new ArrayList<>();
    int turnLimit = wo.constraints().turnLimit();
    for (int round = 1; ; round++) {
      long remaining = wo.tokensRemaining();
      if (remaining <= 0) {
        return finish(wo, null, WoErrorCode.BUDGET_EXHAUSTED, "the work order spent its budget of "
            + wo.constraints().tokenBudget() + " tokens before round " + round, exchangeIds, toolCalls);
      }
      LlmRoundResult r;
      onStep.accept(wo.woType().wireName() + (round == 1 ? "" : " round " + round));
      try {
        // A classic round leaves the lean fields null (left out of the payload).
        r = remote.llmRound(new LlmRoundRequest(wo.woId(), wo.sessionId(), agentClass,
            wo.constraints().promptContractId(), promptRef, transcript, wo.constraints().allowedTools(), round,
            remaining, wo.constraints().maxTokens(), wo.constraints().temperature(),
            leanRounds && round == 1 ? dispatched : null, leanRounds ? wo.cost() : null,
            leanRounds ? wo.woType() : null));
      } catch (ActivityFailure f) {
        return finish(wo, null, WoErrorCode.isLedgerFailure(RootCause.failureType(f))
            ? WoErrorCode.LEDGER_UNWRITABLE : WoErrorCode.GATEWAY_ERROR, RootCause.applicationMessage(f), exchangeIds,
            toolCalls);
      }
      if (r.promptRef() != null) {
        promptRef = r.promptRef();
      }
      if (r.finished() != null) {
        boolean answered = !r.rejected() && r.exchangeEntryId() != null;
        if (answered) {
          exchangeIds.add(r.exchangeEntryId());
        }
        return new Outcome(r.finished().applyTo(wo), answered ? r.text() : null, exchangeIds, toolCalls);
      }
      if (r.rejected()) {
        return finish(wo, null, WoErrorCode.ofRejection(r.rejectedCode()), r.rejectedMessage(), exchangeIds, toolCalls);
      }
      wo = wo.withCost(wo.cost().plus(WoCost.llmCall(r.inputTokens(), r.outputTokens(), r.cost())));
      exchangeIds.add(r.exchangeEntryId());
      transcript.add(EntryRef.hot(r.exchangeEntryId()));
      if (r.toolUses().isEmpty()) {
        return finish(wo, r.text(), null, null, exchangeIds, toolCalls);
      }
      if (round >= turnLimit) {
        return finish(wo, null, WoErrorCode.TURN_LIMIT_EXCEEDED, "the model asked for tools in round " + round
            + " but the work order allows " + turnLimit + " round(s)", exchangeIds, toolCalls);
      }
      int callIndex = 0;
      for (ToolUse use : r.toolUses()) {
        onStep.accept("tool " + use.name());
        // Issue 15: a call the agent's policy marks waits here for a person's decision (durably).
        cp.model.ApprovalResult approval = approver.decide(wo.woId(), agentClass, use, round, ++callIndex);
        ToolCallResult t;
        try {
          t = remote.toolCall(new ToolCallRequest(wo.woId(), wo.sessionId(), agentClass, use,
              wo.constraints().allowedTools(), round, approval));
        } catch (ActivityFailure f) {
          if (WoErrorCode.isLedgerFailure(RootCause.failureType(f))) {
            return finish(wo, null, WoErrorCode.LEDGER_UNWRITABLE, RootCause.applicationMessage(f), exchangeIds,
                toolCalls);
          }
          return finish(wo, null, WoErrorCode.TOOL_ERROR, "tool " + use.name() + " could not run: "
              + RootCause.applicationMessage(f), exchangeIds, toolCalls);
        }
        wo = wo.withCost(wo.cost().plus(WoCost.toolCall()));
        transcript.add(EntryRef.ho1(t.entryId()));
        toolCalls.add(new ToolCallSummary(t.toolName(), wo.woId(), t.status(), t.entryId()));
      }
    }
  }

  private Outcome runSingleTool(WorkOrder wo, String agentClass, List<String> exchangeIds,
      List<ToolCallSummary> toolCalls) {
    var in = wo.inputContext();
    String name = in.path("tool_name").asText("");
    ToolUse use = new ToolUse("wo-" + wo.woId(), name, in.get("arguments"));
    try {
      ToolCallResult t = remote.toolCall(new ToolCallRequest(wo.woId(), wo.sessionId(), agentClass, use,
          wo.constraints().allowedTools(), 1));
      WorkOrder costed = wo.withCost(wo.cost().plus(WoCost.toolCall()));
      toolCalls.add(new ToolCallSummary(t.toolName(), wo.woId(), t.status(), t.entryId()));
      if (!t.ok()) {
        return finish(costed, null, WoErrorCode.TOOL_ERROR, "tool " + name + " ended " + t.status()
            + (t.errorCode() == null ? "" : " (" + t.errorCode() + ")"), exchangeIds, toolCalls);
      }
      return finish(costed, "ref:" + t.entryId(), null, null, exchangeIds, toolCalls);
    } catch (ActivityFailure f) {
      return finish(wo, null, WoErrorCode.TOOL_ERROR, RootCause.applicationMessage(f), exchangeIds, toolCalls);
    }
  }

  private Outcome finish(WorkOrder wo, String text, String code, String message, List<String> exchangeIds,
      List<ToolCallSummary> toolCalls) {
    WorkOrder done = local.finish(new WoFinishRequest(wo, text, code, message));
    return new Outcome(done, text, exchangeIds, toolCalls);
  }
}
