package cp.workflows;

import cp.activities.Ho1Activities;
import cp.model.EntryRef;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.PreparedWorkOrder;
import cp.model.WoErrorCode;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import io.temporal.failure.ActivityFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The work-order protocol of turn workflows recorded before version {@code lean-turn} 1, kept
 * only so that their histories replay (ReplayTest's CLASSIC list): prepare as a local activity,
 * rounds that only call the gateway ({@link LlmRoundResult.Answered}, {@link
 * LlmRoundResult.ToolCalls} or {@link LlmRoundResult.Refused}), then finish as a local activity.
 * New turns never run it. The steps both protocols share are {@link WorkOrderRunner.Run}'s.
 */
final class ClassicWorkOrderRunner {
  private final Ho1Activities remote;
  private final Ho1Activities local;
  private final Consumer<String> onStep;

  ClassicWorkOrderRunner(Ho1Activities remote, Ho1Activities local, Consumer<String> onStep) {
    this.remote = remote;
    this.local = local;
    this.onStep = onStep;
  }

  WorkOrderRunner.Outcome run(WorkOrder dispatched, WorkOrderRunner.Run run) {
    WorkOrder wo = dispatched.transitionTo(WoState.EXECUTING);
    PreparedWorkOrder prepared = local.prepare(dispatched);
    if (!prepared.ok()) {
      return run.finishFailed(wo, prepared.errorCode(), prepared.errorMessage());
    }
    if (wo.woType() == WoType.TOOL_CALL) {
      return run.singleTool(wo);
    }
    List<EntryRef> transcript = new ArrayList<>();
    for (int round = 1; ; round++) {
      long remaining = wo.tokensRemaining();
      if (remaining <= 0) {
        return run.budgetSpent(wo, round);
      }
      onStep.accept(run.step(wo, round));
      LlmRoundResult r;
      try {
        r = remote.llmRound(LlmRoundRequest.classic(wo.woId(), wo.sessionId(), run.agentClass(),
            wo.constraints().promptContractId(), prepared.promptRef(), transcript, wo.constraints().allowedTools(),
            round, remaining, LlmRoundRequest.Overrides.of(wo.constraints().maxTokens(),
                wo.constraints().temperature())));
      } catch (ActivityFailure f) {
        return run.roundFailed(wo, f);
      }
      if (r instanceof LlmRoundResult.Refused refused) {
        return run.finishFailed(wo, WoErrorCode.ofRejection(refused.code()), refused.message());
      }
      if (r instanceof LlmRoundResult.Answered answered) {
        return run.finishAnswered(run.costed(wo, answered.exchange(), transcript), answered.text());
      }
      if (!(r instanceof LlmRoundResult.ToolCalls calls)) {
        throw new IllegalStateException("a pre-lean-turn round does not finish the work order; round " + round
            + " of " + wo.woId() + " returned " + r.kind());
      }
      wo = run.costed(wo, calls.exchange(), transcript);
      WorkOrderRunner.ToolRound tools = run.tools(wo, calls, round, transcript);
      if (tools.ended() != null) {
        return tools.ended();
      }
      wo = tools.workOrder();
    }
  }
}
