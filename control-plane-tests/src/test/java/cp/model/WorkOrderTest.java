package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkOrderTest {
  static WorkOrder planned() {
    return WorkOrder.planned("WO-1a2b3c4d-0001-01", WoType.SYNTHESIZE, "SES-1a2b3c4d", "ADMIN",
        Json.object().put("user_input", "hello"),
        new WoConstraints("PRC-SYNTHESIZE-001", 4000, 3, 120, List.of("read_file"), null, null),
        "2026-11-22T00:00:00Z");
  }

  @Test
  void lifecycle_plannedDispatchedExecutingCompleted() {
    WorkOrder wo = planned().transitionTo(WoState.DISPATCHED).transitionTo(WoState.EXECUTING)
        .complete(Json.object().put("response_text", "hi"), "2026-11-22T00:00:01Z");
    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals("hi", wo.outputResult().get("response_text").asText());
    assertEquals("2026-11-22T00:00:01Z", wo.completedAt());
    assertNull(wo.error());
  }

  @ParameterizedTest
  @CsvSource({"PLANNED,EXECUTING", "PLANNED,COMPLETED", "DISPATCHED,COMPLETED", "DISPATCHED,PLANNED",
      "EXECUTING,DISPATCHED", "COMPLETED,FAILED", "FAILED,COMPLETED", "COMPLETED,EXECUTING"})
  void illegalTransition_isAnErrorNamingBothStates(WoState from, WoState to) {
    WorkOrder wo = at(from);
    IllegalTransitionException e = assertThrows(IllegalTransitionException.class, () -> wo.transitionTo(to));
    assertTrue(e.getMessage().contains(from.wireName() + " -> " + to.wireName()), e.getMessage());
    assertTrue(e.getMessage().contains(wo.woId()), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"PLANNED,DISPATCHED", "PLANNED,FAILED", "DISPATCHED,EXECUTING", "DISPATCHED,FAILED",
      "EXECUTING,COMPLETED", "EXECUTING,FAILED"})
  void legalTransitions_areAllowed(WoState from, WoState to) {
    assertEquals(to, at(from).transitionTo(to).state());
  }

  private static WorkOrder at(WoState s) {
    WorkOrder wo = planned();
    return switch (s) {
      case PLANNED -> wo;
      case DISPATCHED -> wo.transitionTo(WoState.DISPATCHED);
      case EXECUTING -> wo.transitionTo(WoState.DISPATCHED).transitionTo(WoState.EXECUTING);
      case COMPLETED -> at(WoState.EXECUTING).complete(Json.object(), "t");
      case FAILED -> at(WoState.EXECUTING).fail("gateway_error", "down", "t");
    };
  }

  @Test
  void jsonRoundTrip_isStableAndUsesSeedFieldNames() {
    WorkOrder wo = at(WoState.EXECUTING).withCost(WoCost.llmCall(100, 20, 0.5).plus(WoCost.toolCall()))
        .fail("budget_exhausted", "spent", "2026-11-22T00:00:02Z");
    String json = Json.write(wo);
    JsonNode tree = Json.parse(json);
    for (String f : List.of("wo_id", "wo_type", "session_id", "state", "input_context", "constraints", "cost", "error",
        "created_at", "completed_at")) {
      assertTrue(tree.has(f), f + " in " + json);
    }
    assertEquals("synthesize", tree.get("wo_type").asText());
    assertEquals("failed", tree.get("state").asText());
    assertEquals("PRC-SYNTHESIZE-001", tree.at("/constraints/prompt_contract_id").asText());
    assertEquals(120, tree.at("/cost/total_tokens").asLong());
    assertEquals(1, tree.at("/cost/llm_calls").asInt());
    assertEquals(1, tree.at("/cost/tool_calls").asInt());
    WorkOrder back = Json.MAPPER.convertValue(tree, WorkOrder.class);
    assertEquals(wo, back);
    assertEquals(json, Json.write(back), "serializing again gives the same JSON");
  }

  @Test
  void jsonWithUnknownFields_isRead() {
    var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.tree(planned());
    tree.put("field_from_the_future", 42);
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("constraints")).put("new_limit", 7);
    WorkOrder back = Json.MAPPER.convertValue(tree, WorkOrder.class);
    assertEquals(planned(), back);
  }

  @Test
  void workOrder_isImmutable_inputContextIsCopied() {
    var input = Json.object().put("user_input", "a");
    WorkOrder wo = WorkOrder.planned("WO-x", WoType.CLASSIFY, "SES-1", "ADMIN", input,
        new WoConstraints("PRC-CLASSIFY-001", 10, 1, 1, null, null, null), "t");
    input.put("user_input", "changed");
    assertEquals("a", wo.inputContext().get("user_input").asText());
  }

  @Test
  void cost_addsAndTotals_andTokensRemainingNeverNegative() {
    WoCost c = WoCost.llmCall(10, 5, 0.1).plus(WoCost.llmCall(1, 1, 0.2));
    assertEquals(17, c.totalTokens());
    assertEquals(2, c.llmCalls());
    WorkOrder wo = planned().withCost(WoCost.llmCall(5000, 0, 0));
    assertEquals(0, wo.tokensRemaining());
    assertFalse(WoState.EXECUTING.isTerminal());
  }

  @Test
  void constraints_rejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new WoConstraints("P", -1, 1, 1, null, null, null));
    assertThrows(IllegalArgumentException.class, () -> new WoConstraints("P", 1, 0, 1, null, null, null));
    assertThrows(IllegalArgumentException.class, () -> WoType.fromWire("dance"));
  }
}
