package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a turn's entries are read as, for the shapes a real session cannot easily be made to take. */
class TurnDerivationTest {
  static final String SES = "SES-0a0b0c0d";

  static LedgerEntry entry(String type, String decision, ObjectNode meta) {
    meta.put("session_id", SES);
    return LedgerEntry.builder(type).entryId("LED-" + Integer.toHexString(meta.hashCode())).submissionId("x")
        .decision(decision).reason("r").metadata(meta).build();
  }

  static LedgerEntry start() {
    return entry("SESSION_START", "STARTED", Json.object().put("agent_class", "WEATHER").put("tenant", "acme")
        .put("agent_id", "weather-001"));
  }

  static LedgerEntry planned(String text) {
    ObjectNode meta = Json.object().put("agent_class", "WEATHER").put("turn", 2).put("wo_type", "classify");
    meta.putObject("work_order").putObject("input_context").put("user_input", text);
    return entry("WO_PLANNED", "PLANNED", meta);
  }

  static LedgerEntry exchange(String contract, int seq, String outcome, String finish, String response, long in,
      long out, double cost) {
    ObjectNode meta = Json.object().put("wo_id", String.format("WO-0a0b0c0d-0002-%02d", seq)).put("contract_id", contract)
        .put("outcome", outcome).put("finish_reason", finish).put("input_tokens", in).put("output_tokens", out)
        .put("cost", cost).put("provider_id", "openai").put("model_id", "gpt-x");
    if (response != null) {
      meta.put("response", response);
    }
    return entry("EXCHANGE", outcome.toUpperCase(), meta);
  }

  static LedgerEntry toolCall(String tool, String status, String decision, String result) {
    ObjectNode meta = Json.object().put("wo_id", "WO-0a0b0c0d-0002-02").put("tool_id", tool).put("status", status)
        .put("result", result);
    meta.putObject("arguments").put("city", "Oslo");
    return entry("TOOL_CALL", decision, meta);
  }

  static LedgerEntry gate(boolean accepted) {
    return entry("WO_QUALITY_GATE", accepted ? "ACCEPT" : "REJECT", Json.object().put("turn", 2).put("accepted", accepted));
  }

  @Test
  void structuredResult_lastAnswerAfterAGateRetry_tokensOfEveryCall_andTornToolCallsLeftOut() {
    List<LedgerEntry> entries = List.of(start(), planned("weather in Oslo?"),
        exchange("PRC-CLASSIFY-001", 1, "success", "stop", "{\"intent\":\"weather\"}", 100, 10, 0.001),
        exchange("PRC-SYNTHESIZE-001", 2, "success", "tool_use", "", 200, 5, 0.002),
        exchange("PRC-SYNTHESIZE-001", 2, "success", "stop", "{\"response_text\":\"\",\"result\":{}}", 300, 20, 0.003),
        exchange("PRC-SYNTHESIZE-001", 3, "error", "error", null, 50, 0, 0.0005),
        exchange("PRC-SYNTHESIZE-001", 3, "success", "stop",
            "{\"response_text\":\"Oslo: rain\",\"result\":{\"city\":\"Oslo\",\"sky\":\"rain\"}}", 310, 30, 0.004),
        toolCall("get_weather", "ok", "OK", "{\"sky\":\"rain\"}"),
        toolCall("get_weather", "torn", "TORN", "{\"sky"),
        toolCall("write_file", "refused", "REFUSED", "not allowed"),
        gate(false), gate(true),
        entry("WO_CHAIN_COMPLETE", "COMPLETE", Json.object().put("turn", 2).put("outcome", "success")));
    TurnDerivation.Derived d = TurnDerivation.derive(SES, 2, entries);

    assertEquals(new CaseInput("weather in Oslo?", "WEATHER", "acme", SES, 2, Map.of("agent_id", "weather-001",
        "contracts", "PRC-CLASSIFY-001,PRC-SYNTHESIZE-001", "model", "openai/gpt-x")), d.input());
    RecordedTurn r = d.recorded();
    assertEquals("Oslo: rain", r.reply());
    assertEquals(Json.parse("{\"city\":\"Oslo\",\"sky\":\"rain\"}"), r.result());
    assertEquals("success", r.outcome());
    assertTrue(r.gatePassed(), "the last gate passed");
    assertEquals(List.of("get_weather", "write_file"), r.tools().stream().map(RecordedToolCall::tool).toList());
    assertFalse(r.tools().get(0).error());
    assertTrue(r.tools().get(1).error(), "a refused call is an error");
    assertEquals("Oslo", r.tools().get(0).arguments().path("city").asText());
    assertEquals(960, r.inputTokens(), "a failed call's tokens were spent too");
    assertEquals(65, r.outputTokens());
    assertEquals(0.0105, r.costUsd(), 1e-12);
  }

  @Test
  void degradedTurn_answeredByTheDegradedCall() {
    List<LedgerEntry> entries = List.of(start(), planned("hi"),
        exchange("PRC-CLASSIFY-001", 1, "error", "error", null, 10, 0, 0),
        entry("DEGRADATION", "DEGRADED", Json.object().put("turn", 2)),
        exchange("PRC-DEGRADED-001", 0, "success", "stop", "Sorry, a short answer.", 40, 8, 0.0001));
    RecordedTurn r = TurnDerivation.derive(SES, 2, entries).recorded();
    assertEquals("degraded", r.outcome());
    assertEquals("Sorry, a short answer.", r.reply());
    assertFalse(r.gatePassed());
    assertNull(r.result());
  }

  @Test
  void aTurnWithoutItsEnd_isUnknown_andWithoutAnAnswer_hasAnEmptyReply() {
    RecordedTurn r = TurnDerivation.derive(SES, 2, List.of(start(), planned("hi"))).recorded();
    assertEquals(TurnDerivation.UNKNOWN_OUTCOME, r.outcome());
    assertEquals("", r.reply());
    assertEquals(0.0, r.costUsd());
  }
}
