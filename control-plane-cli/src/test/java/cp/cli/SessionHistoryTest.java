package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.Message;
import cp.model.ContractIds;
import cp.model.WorkOrderIds;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session view rebuilt from the ledgers (seed 003: the ledger is the session memory). */
class SessionHistoryTest {
  static final String SID = "SES-0000dead";
  @TempDir Path home;

  // Seed 002 tests 5-6: a degraded turn's prompt is the user's plain text (no <input> block).
  @Test
  void aTurnAnsweredOnlyByTheDegradedCall_showsItsInputAndReply() {
    try (Ledgers ledgers = Ledgers.open(home)) {
      ledgers.hot().write(LedgerEntry.builder("SESSION_START").submissionId(SID)
          .metadata(Json.object().put("session_id", SID).put("agent_class", "ADMIN")).build());
      ObjectNode failedClassify = Json.object().put("session_id", SID)
          .put("work_order_id", WorkOrderIds.workOrder(SID, 1, 1)).put("contract_id", ContractIds.CLASSIFY)
          .put("outcome", "error").put("response", "");
      ledgers.hot().write(LedgerEntry.builder("EXCHANGE").metadata(failedClassify).build());
      ledgers.hot().write(LedgerEntry.builder("DEGRADATION").reason("HO2 failed on turn 1: provider down")
          .metadata(Json.object().put("session_id", SID).put("turn", 1)).build());
      ObjectNode prompt = Json.object().put("system", "degraded mode");
      prompt.set("messages", Json.tree(List.of(Message.user("is anyone there?"))));
      ObjectNode degraded = Json.object().put("session_id", SID)
          .put("work_order_id", WorkOrderIds.workOrder(SID, 1, 0)).put("contract_id", ContractIds.DEGRADED)
          .put("outcome", "success").put("finish_reason", "stop").put("response", "Yes, in degraded mode.");
      degraded.set("prompt", prompt);
      ledgers.hot().write(LedgerEntry.builder("EXCHANGE").metadata(degraded).build());

      SessionHistory.TurnView turn = SessionHistory.load(ledgers, SID).orElseThrow().turns().get(0);
      assertEquals("is anyone there?", turn.input());
      assertEquals("Yes, in degraded mode.", turn.reply());
      assertEquals("degraded", turn.outcome());
    }
  }
}
