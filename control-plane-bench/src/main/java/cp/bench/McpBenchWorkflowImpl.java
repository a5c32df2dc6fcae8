package cp.bench;

import cp.activities.Ho1Activities;
import cp.model.Json;
import cp.model.ToolCallRequest;
import cp.model.ToolUse;
import cp.model.WorkOrderIds;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Deterministic: each call is the plane's tool activity ({@code Ho1ToolCall}, with the worker's
 * options), timed with workflow time, which moves with the workflow tasks that schedule the call
 * and receive its result: the activity's dispatch, its run and the result's way back.
 */
public final class McpBenchWorkflowImpl implements McpBenchWorkflow {
  private final Ho1Activities ho1 = Workflow.newActivityStub(Ho1Activities.class);

  @Override
  public List<Long> run(String sessionId, String agentClass, String tool, String argumentsJson, int calls) {
    List<Long> out = new ArrayList<>();
    String woId = WorkOrderIds.workOrder(sessionId, 1, 1);
    for (int i = 1; i <= calls; i++) {
      long start = Workflow.currentTimeMillis();
      ho1.toolCall(new ToolCallRequest(woId, sessionId, agentClass, new ToolUse("bench-" + i, tool,
          Json.parse(argumentsJson)), List.of(tool), i, null, 1));
      out.add(Workflow.currentTimeMillis() - start);
    }
    return out;
  }
}
