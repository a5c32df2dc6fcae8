package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.ContractIds;
import cp.model.Json;
import cp.model.WorkOrderIds;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl show} said {@code $0.0000} for a turn whose model has no price, which reads as free,
 * while the chat footer says {@code cost unknown (model has no price)}. It now says the same from what
 * the ledger holds: the EXCHANGEs' {@code cost_unknown}.
 */
class ShowUnpricedTest {
  static final String SID = "SES-0000beef";
  @TempDir Path home;

  /** A successful EXCHANGE of {@code SID}'s turn {@code turn}: priced at {@code costUsd}, or unpriced when null. */
  private static LedgerEntry exchange(int turn, int wo, String contract, Double costUsd) {
    ObjectNode m = Json.object().put("session_id", SID).put("work_order_id", WorkOrderIds.workOrder(SID, turn, wo))
        .put("contract_id", contract).put("outcome", "success").put("finish_reason", "stop")
        .put("response", "an answer").put("input_tokens", 100).put("output_tokens", 20)
        .put("cost", costUsd == null ? 0.0 : costUsd);
    if (costUsd == null) {
      m.put("cost_unknown", true);
    } else {
      m.put("cost_usd", costUsd);
    }
    return LedgerEntry.builder("EXCHANGE").metadata(m).build();
  }

  @Test
  void aTurnWithoutPrice_saysCostUnknown_andAMixedTurnCountsItsUnpricedCalls() {
    try (Ledgers ledgers = Ledgers.open(home)) {
      ledgers.hot().write(LedgerEntry.builder("SESSION_START").submissionId(SID)
          .metadata(Json.object().put("session_id", SID).put("agent_class", "ADMIN")).build());
      ledgers.hot().write(exchange(1, 1, ContractIds.CLASSIFY, null));
      ledgers.hot().write(exchange(1, 2, ContractIds.SYNTHESIZE, null));
      ledgers.hot().write(exchange(2, 1, ContractIds.CLASSIFY, 0.0123));
      ledgers.hot().write(exchange(2, 2, ContractIds.SYNTHESIZE, null));
      ledgers.hot().write(exchange(3, 1, ContractIds.CLASSIFY, 0.0100));
    }

    var r = CliHarness.run(CliHarness.env(home), "show", SID);

    assertEquals(Cpctl.OK, r.code(), r::describe);
    String turn1 = line(r.out(), "turn 1 ");
    assertTrue(turn1.contains("cost unknown (model has no price)"), turn1);
    assertFalse(turn1.contains("$0.0000"), turn1);
    assertTrue(line(r.out(), "turn 2 ").contains("$0.0123 + 1 unpriced call "), r.out());
    String turn3 = line(r.out(), "turn 3 ");
    assertTrue(turn3.contains("$0.0100") && !turn3.contains("unpriced"), turn3);
    assertTrue(line(r.out(), "total: ").contains("$0.0223 + 3 unpriced calls"), r.out());

    var json = CliHarness.run(CliHarness.env(home), "show", SID, "--json");
    assertEquals(Cpctl.OK, json.code(), json::describe);
    JsonNode turns = Json.parse(json.out()).get("turns");
    assertEquals(2, turns.get(0).get("unpriced_calls").asInt(), json.out());
    assertEquals(1, turns.get(1).get("unpriced_calls").asInt(), json.out());
    assertFalse(turns.get(2).has("unpriced_calls"), "absent when every call had a price: " + json.out());
  }

  private static String line(String out, String prefix) {
    return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(
        "no line starting '" + prefix + "' in\n" + out));
  }
}
