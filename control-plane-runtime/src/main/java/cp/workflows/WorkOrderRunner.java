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
import java.util.function.Consumer;

/**
 * HO1's tool loop as deterministic workflow code: the decisions here, the I/O in activities.
 *
 * <p>For a dispatched work order: rounds of one gateway call each (an activity), each followed by
 * the tool calls it asked for (one activity per call), until a round ends the work order. The
 * first round also prepares the work order (validates its input, renders the prompt, writes
 * WO_EXECUTING) and the round that ends it also finishes it (validates the answer, writes
 * WO_COMPLETED or WO_FAILED) and says so ({@link LlmRoundResult.Finished}): a work order that ends
 * in an answer costs its round trips and no local activity. Prepare and finish run as local
 * activities only where no round trip can do them: a tool_call work order, a budget spent before
 * the first round, a round that failed, a tool that could not run, the turn limit.
 *
 * <p>Budget is law: before every round the work order must have tokens left, and the provider's
 * reported tokens are debited after. A tool_use answer in the last allowed round fails the work
 * order with turn_limit_exceeded instead of running tools nobody will read.
 *
 * <p>Turn workflows recorded before version {@code lean-turn} 1 ran the older protocol (local
 * prepare and finish around every work order); {@link ClassicWorkOrderRunner} keeps it for their
 * replay.
 */
public final class WorkOrderRunner {
  private final Ho1Activities remote;
  private final Ho1Activities local;
  private final Consumer<String> onStep;
  private final boolean lean;
  private final ToolApprover approver;
  private final RoundStreams streams;

  /** What running a work order produced, beyond the work order itself. */
  public record Outcome(WorkOrder workOrder, String finalText, List<String> exchangeIds, List<ToolCallSummary> toolCalls) {
    public Outcome {
      exchangeIds = List.copyOf(exchangeIds);
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /** A runner of the pre-{@code lean-turn} protocol that reports no steps (tests of that protocol use it). */
  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local) {
    this(remote, local, step -> { }, false);
  }

  /**
   * {@code onStep} hears each step ("synthesize round 2", "tool list_packages") for progress
   * queries. {@code lean} is whether the turn runs the current protocol (version {@code lean-turn}
   * 1 on); without it the pre-{@code lean-turn} protocol runs, for histories recorded before.
   */
  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local, Consumer<String> onStep, boolean lean) {
    this(remote, local, onStep, lean, ToolApprover.NONE);
  }

  /** As above; {@code approver} decides, before each tool call, whether a person must allow it (issue 15). */
  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local, Consumer<String> onStep, boolean lean,
      ToolApprover approver) {
    this(remote, local, onStep, lean, approver, RoundStreams.NONE);
  }

  /** As above; {@code streams} says which rounds stream their reply to the turn (issue 24). */
  public WorkOrderRunner(Ho1Activities remote, Ho1Activities local, Consumer<String> onStep, boolean lean,
      ToolApprover approver, RoundStreams streams) {
    this.streams = streams;
    this.remote = remote;
    this.local = local;
    this.onStep = onStep;
    this.lean = lean;
    this.approver = approver;
  }

  /** Issue 23: the session's tenant, carried by every round (EXCHANGE records it for spend reports). */
  private String tenant;

  /** This runner, its rounds naming {@code tenantId} (null: none, as before issue 23). */
  public WorkOrderRunner forTenant(String tenantId) {
    this.tenant = tenantId;
    return this;
  }

  /** Decides whether a tool call may run (issue 15): null when it needs no person's decision. */
  @FunctionalInterface
  public interface ToolApprover {
    ToolApprover NONE = (woId, agentClass, use, round, index) -> null;

    cp.model.ApprovalResult decide(String woId, String agentClass, ToolUse use, int round, int index);
  }

  /** Issue 24: whether a round streams its reply to the turn, and where; told when the round ended. */
  public interface RoundStreams {
    RoundStreams NONE = new RoundStreams() {
      @Override
      public java.util.Optional<LlmRoundRequest.StreamTo> open(WorkOrder wo, int round) {
        return java.util.Optional.empty();
      }

      @Override
      public void close() { }
    };

    java.util.Optional<LlmRoundRequest.StreamTo> open(WorkOrder wo, int round);

    void close();
  }

  /** Runs a work order in state dispatched to a terminal state. */
  public Outcome run(WorkOrder dispatched, String agentClass) {
    return run(dispatched, agentClass, false);
  }

  /**
   * Whether the current protocol prepares {@code wo} in its first LLM round (a round trip), rather
   * than with a local activity: every work order but a tool_call one, while it has tokens left.
   */
  public static boolean preparesInRound(WorkOrder wo) {
    return wo.woType() != WoType.TOOL_CALL && wo.tokensRemaining() > 0;
  }

  /**
   * As above; with {@code recordPlan} (only where {@link #preparesInRound}) the first round also
   * writes the work order's WO_PLANNED and WO_DISPATCHED ({@code plan-in-round} 1).
   */
  public Outcome run(WorkOrder dispatched, String agentClass, boolean recordPlan) {
    if (recordPlan && (!lean || !preparesInRound(dispatched))) {
      throw new IllegalArgumentException("work order " + dispatched.woId() + " has no first round to record its plan");
    }
    if (dispatched.state() != WoState.DISPATCHED) {
      throw new IllegalStateException("work order " + dispatched.woId() + " must be dispatched, is "
          + dispatched.state().wireName());
    }
    Run run = new Run(agentClass);
    if (!lean) {
      return new ClassicWorkOrderRunner(remote, local, onStep).run(dispatched, run);
    }
    WorkOrder wo = dispatched.transitionTo(WoState.EXECUTING);
    if (!preparesInRound(wo)) {
      // No round trip to prepare the work order: prepare it here.
      PreparedWorkOrder prepared = local.prepare(dispatched);
      if (!prepared.ok()) {
        return run.finishFailed(wo, prepared.errorCode(), prepared.errorMessage());
      }
      return wo.woType() == WoType.TOOL_CALL ? run.singleTool(wo) : run.budgetSpent(wo, 1);
    }
    String promptRef = null;
    List<EntryRef> transcript = new ArrayList<>();
    for (int round = 1; ; round++) {
      if (wo.tokensRemaining() <= 0) {
        return run.budgetSpent(wo, round);
      }
      onStep.accept(run.step(wo, round));
      LlmRoundResult r;
      LlmRoundRequest request = LlmRoundRequest.lean(wo.woId(), wo.sessionId(), agentClass,
          wo.constraints().promptContractId(), round == 1 ? new LlmRoundRequest.ToPrepare(dispatched, recordPlan)
              : new LlmRoundRequest.Prepared(promptRef), transcript, wo.constraints().allowedTools(), round,
          wo.tokensRemaining(), LlmRoundRequest.Overrides.of(wo.constraints().maxTokens(),
              wo.constraints().temperature()), new LlmRoundRequest.Closing(wo.cost(), wo.woType()))
          .withUsd(usdLeft(wo), wo.constraints().usdLevel()).withTenant(tenant);
      try {
        r = remote.llmRound(streams.open(wo, round).map(request::streamingTo).orElse(request));
      } catch (ActivityFailure f) {
        return run.roundFailed(wo, f);
      } finally {
        streams.close();
      }
      if (r instanceof LlmRoundResult.Finished done) {
        return run.finished(wo, done);
      }
      if (!(r instanceof LlmRoundResult.ToolCalls calls)) {
        throw new IllegalStateException("a round of the current protocol ends the work order or asks for tools; "
            + "round " + round + " of " + wo.woId() + " returned " + r.kind());
      }
      promptRef = calls.preparedPrompt().orElse(promptRef);
      wo = run.costed(wo, calls.exchange(), transcript);
      ToolRound tools = run.tools(wo, calls, round, transcript);
      if (tools.ended() != null) {
        return tools.ended();
      }
      wo = tools.workOrder();
    }
  }

  /** Issue 23: the dollars the work order has left of its cap (what it spent is debited), or null without one. */
  static Double usdLeft(WorkOrder wo) {
    Double cap = wo.constraints().usdBudget();
    return cap == null ? null : Math.max(0.0, cap - wo.cost().cost());
  }

  /** After a round's tools: the work order with their cost, or how it ended ({@code ended} set). */
  record ToolRound(WorkOrder workOrder, Outcome ended) {
    static ToolRound ended(Outcome outcome) {
      return new ToolRound(null, outcome);
    }
  }

  /**
   * One work order's run: what it has produced so far (exchanges, tool calls) and the steps both
   * protocols share. Each step's commands are the same in both.
   */
  final class Run {
    private final String agentClass;
    private final List<String> exchangeIds = new ArrayList<>();
    private final List<ToolCallSummary> toolCalls = new ArrayList<>();

    Run(String agentClass) {
      this.agentClass = agentClass;
    }

    String agentClass() {
      return agentClass;
    }

    String step(WorkOrder wo, int round) {
      return wo.woType().wireName() + (round == 1 ? "" : " round " + round);
    }

    /** The work order after an exchange: its tokens debited, the exchange on record and in the transcript. */
    WorkOrder costed(WorkOrder wo, LlmRoundResult.Exchange exchange, List<EntryRef> transcript) {
      exchangeIds.add(exchange.entryId());
      transcript.add(EntryRef.hot(exchange.entryId()));
      return wo.withCost(wo.cost().plus(exchange.woCost()));
    }

    /**
     * Runs the tools a round asked for, unless the round was the last allowed: the work order with
     * each tool's cost when the loop goes on, else how it ended.
     */
    ToolRound tools(WorkOrder wo, LlmRoundResult.ToolCalls calls, int round, List<EntryRef> transcript) {
      int turnLimit = wo.constraints().turnLimit();
      if (round >= turnLimit) {
        return ToolRound.ended(finishFailed(wo, WoErrorCode.TURN_LIMIT_EXCEEDED, "the model asked for tools in round "
            + round + " but the work order allows " + turnLimit + " round(s)"));
      }
      WorkOrder costed = wo;
      int callIndex = 0;
      for (ToolUse use : calls.toolUses()) {
        onStep.accept("tool " + use.name());
        // Issue 15: a call the agent's policy marks waits here for a person's decision (durably).
        cp.model.ApprovalResult approval = approver.decide(wo.woId(), agentClass, use, round, ++callIndex);
        ToolCallResult t;
        try {
          t = remote.toolCall(new ToolCallRequest(wo.woId(), wo.sessionId(), agentClass, use,
              wo.constraints().allowedTools(), round, approval, callIndex));
        } catch (ActivityFailure f) {
          if (WoErrorCode.isLedgerFailure(RootCause.failureType(f))) {
            return ToolRound.ended(finishFailed(costed, WoErrorCode.LEDGER_UNWRITABLE,
                RootCause.applicationMessage(f)));
          }
          return ToolRound.ended(finishFailed(costed, WoErrorCode.TOOL_ERROR, "tool " + use.name() + " could not run: "
              + RootCause.applicationMessage(f)));
        }
        costed = costed.withCost(costed.cost().plus(WoCost.toolCall()));
        transcript.add(EntryRef.ho1(t.entryId()));
        toolCalls.add(new ToolCallSummary(t.toolName(), wo.woId(), t.status(), t.entryId()));
      }
      return new ToolRound(costed, null);
    }

    /** A round that ended the work order itself. */
    Outcome finished(WorkOrder wo, LlmRoundResult.Finished done) {
      done.answer().ifPresent(a -> exchangeIds.add(a.entryId()));
      return new Outcome(done.outcome().applyTo(wo), done.answer().isPresent() ? done.text() : null, exchangeIds,
          toolCalls);
    }

    /** A round trip that failed: the ledger could not record it, or the gateway could not send it. */
    Outcome roundFailed(WorkOrder wo, ActivityFailure f) {
      return finishFailed(wo, WoErrorCode.isLedgerFailure(RootCause.failureType(f))
          ? WoErrorCode.LEDGER_UNWRITABLE : WoErrorCode.GATEWAY_ERROR, RootCause.applicationMessage(f));
    }

    Outcome budgetSpent(WorkOrder wo, int round) {
      return finishFailed(wo, WoErrorCode.BUDGET_EXHAUSTED, "the work order spent its budget of "
          + wo.constraints().tokenBudget() + " tokens before round " + round);
    }

    /** A tool_call work order: its one tool, run directly; its result is the TOOL_CALL entry. */
    Outcome singleTool(WorkOrder wo) {
      var in = wo.inputContext();
      String name = in.path("tool_name").asText("");
      ToolUse use = new ToolUse("wo-" + wo.woId(), name, in.get("arguments"));
      try {
        ToolCallResult t = remote.toolCall(new ToolCallRequest(wo.woId(), wo.sessionId(), agentClass, use,
            wo.constraints().allowedTools(), 1, null, 1));
        WorkOrder costed = wo.withCost(wo.cost().plus(WoCost.toolCall()));
        toolCalls.add(new ToolCallSummary(t.toolName(), wo.woId(), t.status(), t.entryId()));
        if (!t.ok()) {
          return finishFailed(costed, WoErrorCode.TOOL_ERROR, "tool " + name + " ended " + t.status()
              + (t.errorCode() == null ? "" : " (" + t.errorCode() + ")"));
        }
        return finishWith(WoFinishRequest.toolResult(costed, t.entryId()), null);
      } catch (ActivityFailure f) {
        return finishFailed(wo, WoErrorCode.TOOL_ERROR, RootCause.applicationMessage(f));
      }
    }

    /** Finishes the work order with its final answer (validated by the finish step). */
    Outcome finishAnswered(WorkOrder wo, String text) {
      return finishWith(new WoFinishRequest(wo, text, null, null), text);
    }

    Outcome finishFailed(WorkOrder wo, String code, String message) {
      return finishWith(new WoFinishRequest(wo, null, code, message), null);
    }

    private Outcome finishWith(WoFinishRequest request, String finalText) {
      WorkOrder done = local.finish(request);
      return new Outcome(done, finalText, exchangeIds, toolCalls);
    }
  }
}
