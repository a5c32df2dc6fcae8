package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import cp.model.WoConstraints;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import java.util.List;

/** Dispatched work orders as HO2 would hand them to HO1, for the ADMIN agent of one session. */
final class WorkOrders {
  static final String SESSION = "SES-0000abcd";
  static final String AGENT = "ADMIN";
  static final String CLASSIFY = "PRC-CLASSIFY-001";
  static final String SYNTHESIZE = "PRC-SYNTHESIZE-001";
  static final String EXECUTE = "PRC-EXECUTE-001";
  /** Far above any prompt here, so only the tests about budgets ever meet it. */
  static final long BUDGET = 50_000;
  static final int TURN_LIMIT = 5;
  static final String CREATED_AT = "2026-01-01T00:00:00Z";
  static final List<String> TOOLS = List.of("list_packages", "read_file", "query_ledger", "gate_check");

  private WorkOrders() {}

  static String woId(int seq) {
    return String.format("WO-0000abcd-0001-%02d", seq);
  }

  static WorkOrder dispatched(int seq, WoType type, JsonNode input, WoConstraints constraints) {
    return WorkOrder.planned(woId(seq), type, SESSION, AGENT, input, constraints, CREATED_AT)
        .transitionTo(WoState.DISPATCHED);
  }

  static WoConstraints constraints(String contract, long budget, int turnLimit, List<String> tools) {
    return new WoConstraints(contract, budget, turnLimit, 600, tools, null, null);
  }

  static WorkOrder classify(String userInput) {
    return dispatched(1, WoType.CLASSIFY, Json.object().put("user_input", userInput),
        constraints(CLASSIFY, BUDGET, 1, List.of()));
  }

  static ObjectNode synthesizeInput(String userInput) {
    ObjectNode in = Json.object().put("user_input", userInput);
    in.putArray("prior_results").addObject().put("speech_act", "question").put("ambiguity", "low");
    in.putObject("acceptance_criteria").put("must_include_response_text", true).put("max_response_chars", 8000);
    return in;
  }

  static WorkOrder synthesize(String userInput) {
    return synthesize(userInput, BUDGET, TURN_LIMIT);
  }

  static WorkOrder synthesize(String userInput, long budget, int turnLimit) {
    return dispatched(2, WoType.SYNTHESIZE, synthesizeInput(userInput),
        constraints(SYNTHESIZE, budget, turnLimit, TOOLS));
  }

  static WorkOrder execute(String instruction) {
    return dispatched(3, WoType.EXECUTE, Json.object().put("user_input", instruction),
        constraints(EXECUTE, BUDGET, TURN_LIMIT, TOOLS));
  }

  /** wo_type=tool_call: one named tool, no model; the contract still checks the input. */
  static WorkOrder toolCall(String tool, JsonNode arguments) {
    ObjectNode in = Json.object().put("user_input", "run " + tool).put("tool_name", tool);
    in.set("arguments", arguments);
    return dispatched(4, WoType.TOOL_CALL, in, constraints(EXECUTE, BUDGET, 1, List.of(tool)));
  }
}
