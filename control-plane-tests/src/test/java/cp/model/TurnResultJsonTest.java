package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed 002 test 10 and seed 001 Q10: what a turn returns to its caller (the CLI, the SDK, a
 * Temporal Update result) and the names it has on the wire.
 */
class TurnResultJsonTest {
  @Test
  void turnResult_hasTheSeedsFieldsInSnakeCase_andRoundTrips() {
    TurnResult r = new TurnResult("Hello!", TurnOutcome.SUCCESS, "SES-1a2b3c4d", 1, true,
        List.of(new WoSummary("WO-1a2b3c4d-0001-01", "classify", "completed", null, 100, 1, 0)),
        new CostSummary(60, 40, 100, 1, 0, 0.001, 100, 99_900),
        List.of(new ToolCallSummary("list_packages", "WO-1a2b3c4d-0001-02", "ok", "LED-1")),
        List.of("LED-x1"), "abc123", null);
    JsonNode wire = Json.parse(Json.write(r));
    List<String> fields = new ArrayList<>();
    wire.fieldNames().forEachRemaining(fields::add);
    assertEquals(List.of("response", "outcome", "session_id", "turn", "quality_gate_passed", "wo_chain_summary",
        "cost_summary", "tool_calls", "exchange_entry_ids", "trace_hash"), fields, "error_code is omitted when null");
    assertEquals(r, Json.convert(wire, TurnResult.class));
  }
}
