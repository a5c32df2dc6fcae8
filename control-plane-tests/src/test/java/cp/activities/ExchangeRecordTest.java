package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.ContractIds;
import cp.model.Json;
import cp.model.WoCost;
import org.junit.jupiter.api.Test;

/** The one reader of EXCHANGE records (transcript, attention, session history). */
class ExchangeRecordTest {
  private static LedgerEntry exchange(String contract, String finishReason, String response) {
    ObjectNode meta = Json.object().put("contract_id", contract).put("outcome", "success")
        .put("finish_reason", finishReason).put("work_order_id", "WO-1a2b3c4d-0003-02").put("response", response)
        .put("input_tokens", 120).put("output_tokens", 30).put("cost", 0.25);
    meta.putObject("prompt").putArray("messages").addObject().putArray("content").addObject().put("type", "text")
        .put("text", "Answer this.\n<input>{\"user_input\":\"what is installed?\"}</input>");
    return LedgerEntry.builder("EXCHANGE").metadata(meta).build();
  }

  @Test
  void readsTheUserInputTheAnswerTheTurnAndTheCost() {
    ExchangeRecord x = ExchangeRecord.of(exchange(ContractIds.SYNTHESIZE, "stop",
        "{\"response_text\":\"Three packages.\"}"));
    assertEquals("what is installed?", x.userInput());
    assertEquals("Three packages.", x.answerText());
    assertEquals(3, x.turn());
    assertTrue(x.finalAnswer());
    assertEquals(WoCost.llmCall(120, 30, 0.25), x.cost());
    assertEquals("{\"response_text\":\"Three packages.\"}", x.responseBlocks().get(0).text());
  }

  @Test
  void aToolUseRoundOrAFailedOneIsNotAFinalAnswer_andOtherEventsAreRefused() {
    assertFalse(ExchangeRecord.of(exchange(ContractIds.SYNTHESIZE, "tool_use", "")).finalAnswer());
    assertFalse(ExchangeRecord.of(exchange(ContractIds.CLASSIFY, "stop", "{}")).finalAnswer());
    LedgerEntry failed = exchange(ContractIds.SYNTHESIZE, "stop", "x");
    ObjectNode meta = failed.metadata().put("outcome", "error");
    assertFalse(ExchangeRecord.of(failed.toBuilder().metadata(meta).build()).finalAnswer());
    assertEquals("plain words", ExchangeRecord.of(exchange(ContractIds.DEGRADED, "stop", "plain words")).answerText());
    assertThrows(IllegalArgumentException.class, () -> ExchangeRecord.of(LedgerEntry.builder("TOOL_CALL").build()));
  }
}
