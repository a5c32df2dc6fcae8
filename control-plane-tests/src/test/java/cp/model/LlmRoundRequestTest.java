package cp.model;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A round request says what it must do in one consistent shape: a prompt already prepared, or
 * (round 1 of the current protocol) the work order to prepare, never both or neither; and it
 * finishes the work order (the current protocol) with both the cost before and the type, or not
 * at all (the pre-lean-turn protocol).
 */
class LlmRoundRequestTest {
  private static final WoConstraints C = new WoConstraints(ContractIds.SYNTHESIZE, 1000, 3, 60, List.of(), null, null);
  private static final WorkOrder DISPATCHED = WorkOrder.planned("WO-0000abcd-0001-02", WoType.SYNTHESIZE,
      "SES-0000abcd", "ADMIN", Json.object().put("user_input", "hi"), C, "2026-01-01T00:00:00Z")
      .transitionTo(WoState.DISPATCHED);

  private static LlmRoundRequest request(String promptRef, WorkOrder dispatched, WoCost costBefore, WoType type) {
    return new LlmRoundRequest("WO-0000abcd-0001-02", "SES-0000abcd", "ADMIN", ContractIds.SYNTHESIZE, promptRef,
        List.of(), List.of(), 1, 1000, null, null, dispatched, costBefore, type);
  }

  @Test
  void theThreeShapesTheRunnersSend() {
    assertFalse(request("LED-p", null, null, null).lean(), "pre-lean-turn round");
    assertTrue(request(null, DISPATCHED, WoCost.ZERO, WoType.SYNTHESIZE).lean(), "current round 1");
    assertTrue(request("LED-p", null, WoCost.ZERO, WoType.SYNTHESIZE).lean(), "current round 2+");
  }

  @Test
  void aPromptToPrepareAndAPreparedPrompt_areExclusive() {
    var both = assertThrows(IllegalArgumentException.class,
        () -> request("LED-p", DISPATCHED, WoCost.ZERO, WoType.SYNTHESIZE));
    assertTrue(both.getMessage().contains("prompt_ref") && both.getMessage().contains("dispatched"), both.getMessage());
    assertThrows(IllegalArgumentException.class, () -> request(null, null, WoCost.ZERO, WoType.SYNTHESIZE));
    assertThrows(IllegalArgumentException.class, () -> request(null, null, null, null));
  }

  @Test
  void finishingNeedsTheCostAndTheType_andPreparingNeedsFinishing() {
    assertThrows(IllegalArgumentException.class, () -> request("LED-p", null, WoCost.ZERO, null));
    assertThrows(IllegalArgumentException.class, () -> request("LED-p", null, null, WoType.SYNTHESIZE));
    assertThrows(IllegalArgumentException.class, () -> request(null, DISPATCHED, null, null));
  }
}
