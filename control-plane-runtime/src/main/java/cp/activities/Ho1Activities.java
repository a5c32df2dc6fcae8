package cp.activities;

import cp.model.DegradedRequest;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.PreparedWorkOrder;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.WoFinishRequest;
import cp.model.WorkOrder;
import io.temporal.activity.ActivityInterface;

/**
 * HO1, the executor: the only activities that hold the gateway (Invariant #1).
 *
 * <p>One activity per gateway round trip and one per tool call, so a worker that dies after
 * round 2 of a tool loop resumes at round 3. Every method is idempotent: a retry finds the
 * ledger entries its earlier attempt wrote and neither writes them again nor repeats a
 * completed provider call or tool call.
 */
@ActivityInterface(namePrefix = "Ho1")
public interface Ho1Activities {
  /** Loads the contract, validates input_context, renders the prompt pack, writes WO_EXECUTING. */
  PreparedWorkOrder prepare(WorkOrder workOrder);

  /** One gateway round trip (LLM_CALL in HO1m, EXCHANGE in HOT); heartbeats while in flight. */
  LlmRoundResult llmRound(LlmRoundRequest request);

  /** One tool call through the dispatcher (TOOL_CALL in HO1m); tool errors are results, not failures. */
  ToolCallResult toolCall(ToolCallRequest request);

  /** Validates the output against the contract, writes WO_COMPLETED or WO_FAILED, returns the final WO. */
  WorkOrder finish(WoFinishRequest request);

  /** The session's last resort: one direct round trip under the degraded contract. */
  LlmRoundResult degradedCall(DegradedRequest request);
}
