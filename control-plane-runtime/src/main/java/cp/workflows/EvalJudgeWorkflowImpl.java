package cp.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import cp.activities.Ho1Activities;
import cp.model.Json;
import cp.model.JudgeOutcome;
import cp.model.JudgeRequest;
import cp.model.WoConstraints;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import cp.model.WorkOrderIds;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.List;

/** Runs {@link EvalJudgeWorkflow}'s one work order through HO1's {@link WorkOrderRunner}: no tools, temperature 0. */
public final class EvalJudgeWorkflowImpl implements EvalJudgeWorkflow {
  /** One round: the judge answers, it calls no tool. */
  static final int TURN_LIMIT = 1;
  /** How long the judge's work order may run: one model call, with the LLM activity's own retries. */
  static final int TIMEOUT_SECONDS = 300;

  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);
  private final Ho1Activities ho1Local = Workflow.newLocalActivityStub(Ho1Activities.class);

  @Override
  public JudgeOutcome judge(JudgeRequest r) {
    String woId = WorkOrderIds.workOrder(r.sessionId(), 1, JudgeRequest.WORK_ORDER_SEQ);
    JsonNode input = Json.object().put("rubric", r.rubric()).put("user_text", r.userText()).put("reply", r.reply());
    WorkOrder planned = WorkOrder.planned(woId, WoType.EXECUTE, r.sessionId(), r.agentClass(), input,
        new WoConstraints(JudgeRequest.CONTRACT, r.tokenBudget(), TURN_LIMIT, TIMEOUT_SECONDS, List.of(), null, 0.0),
        Instant.ofEpochMilli(Workflow.currentTimeMillis()).toString());
    WorkOrder done = new WorkOrderRunner(ho1, ho1Local, step -> { }, true).forTenant(r.tenant())
        .run(planned.transitionTo(WoState.DISPATCHED), r.agentClass(), true).workOrder();
    double cost = done.cost().cost();
    JsonNode out = done.outputResult();
    if (done.state() != WoState.COMPLETED || out == null || !out.path("pass").isBoolean()) {
      String why = done.error() != null ? done.error().code() + ": " + done.error().message()
          : "the judge's answer has no boolean 'pass'";
      return new JudgeOutcome(false, "the judge could not decide (" + why + ")", cost, woId, why);
    }
    return new JudgeOutcome(out.get("pass").asBoolean(), out.path("reason").asText(""), cost, woId, null);
  }
}
