package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.ContractIds;
import cp.model.Json;
import cp.model.WoConstraints;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed 001 Q7, the MVP quality gate as pure code: output not null, not empty, has a
 * response_text, and that text is non-empty (and within max_response_chars). The workflow-level
 * behaviour (retry with feedback, escalation) is in TurnWorkflowTest.
 */
class QualityGateTest {
  static final String AT = "2026-01-01T00:00:00Z";

  static WorkOrder executing() {
    return WorkOrder.planned("WO-0000abcd-0001-02", WoType.SYNTHESIZE, "SES-0000abcd", "ADMIN", Json.object(),
        new WoConstraints(ContractIds.SYNTHESIZE, 4000, 3, 120, List.of(), null, null), AT)
        .transitionTo(WoState.DISPATCHED).transitionTo(WoState.EXECUTING);
  }

  static GateDecision verify(JsonNode output, int maxChars) {
    return QualityGate.verify(executing().complete(output, AT), maxChars);
  }

  // Seed 001 Q7: accept -> the response text goes back to the user.
  @Test
  void aNonEmptyResponseText_isAccepted() {
    GateDecision d = verify(Json.object().put("response_text", "Hello!").put("extra", 1), 200);
    assertTrue(d.accepted());
    assertEquals("Hello!", d.responseText());
    assertTrue(d.reasons().isEmpty());
  }

  // Seed 001 Q7: "output_result is not None".
  @Test
  void aMissingOutput_isRejected() {
    GateDecision d = verify(null, 200);
    assertFalse(d.accepted());
    assertEquals(List.of("the output is empty"), d.reasons());
  }

  // Seed 001 Q7: "not empty".
  @Test
  void anEmptyOutputObject_isRejected() {
    assertEquals(List.of("the output is empty"), verify(Json.object(), 200).reasons());
  }

  // Seed 001 Q7: "contains response_text key" (and it is text, not a number or an object).
  @Test
  void aResponseTextThatIsNotAString_isRejected() {
    GateDecision d = verify(Json.object().put("response_text", 42), 200);
    assertFalse(d.accepted());
    assertEquals(List.of("the output has no response_text string"), d.reasons());
    assertNull(d.responseText());
  }

  // Acceptance criteria max_response_chars: the limit itself is accepted, one more is not.
  @Test
  void maxResponseChars_isInclusive_andZeroMeansNoLimit() {
    assertTrue(verify(Json.object().put("response_text", "x".repeat(10)), 10).accepted());
    GateDecision over = verify(Json.object().put("response_text", "x".repeat(11)), 10);
    assertFalse(over.accepted());
    assertEquals(List.of("response_text has 11 characters; the limit is 10"), over.reasons());
    assertTrue(verify(Json.object().put("response_text", "x".repeat(100_000)), 0).accepted());
  }

  // Seed 001 Q7: a synthesize work order that failed is rejected, and the reason names its error.
  @Test
  void aFailedWorkOrder_isRejectedWithItsErrorAsTheReason() {
    WorkOrder failed = executing().fail("output_schema_invalid", "the model's answer is not JSON", AT);
    GateDecision d = QualityGate.verify(failed, 200);
    assertFalse(d.accepted());
    assertEquals(List.of("the work order failed with output_schema_invalid: the model's answer is not JSON"),
        d.reasons());
  }
}
