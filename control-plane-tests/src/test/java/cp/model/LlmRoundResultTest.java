package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A round trip's result is one of four kinds, written with a {@code kind} discriminator; the
 * result shape recorded before (one record with nullable fields) still reads, because committed
 * workflow histories hold it as activity results.
 */
class LlmRoundResultTest {
  private static final DataConverter CONVERTER = DefaultDataConverter.newDefaultInstance()
      .withPayloadConverterOverrides(new JacksonJsonPayloadConverter(Json.newMapper()));

  private static LlmRoundResult read(String json) {
    var payload = io.temporal.api.common.v1.Payload.newBuilder()
        .putMetadata("encoding", com.google.protobuf.ByteString.copyFromUtf8("json/plain"))
        .setData(com.google.protobuf.ByteString.copyFrom(json, StandardCharsets.UTF_8)).build();
    return CONVERTER.fromPayload(payload, LlmRoundResult.class, LlmRoundResult.class);
  }

  private static String write(LlmRoundResult r) {
    return CONVERTER.toPayload(r).orElseThrow().getData().toStringUtf8();
  }

  // Payloads as the committed histories hold them (lean-tool-loop-turn.json, tool-loop-turn.json,
  // degraded-session.json).
  private static final String OLD_FINISHED = "{\"exchange_entry_id\":\"LED-x4\",\"text\":\"{\\\"response_text\\\":\\\"3\\\"}\","
      + "\"tool_uses\":[],\"finish_reason\":\"stop\",\"input_tokens\":50,\"output_tokens\":50,\"cost\":0.001,"
      + "\"model_id\":\"fake-model\",\"replayed\":false,\"finished\":{\"state\":\"completed\",\"output_result\":"
      + "{\"response_text\":\"3\"},\"completed_at\":\"2026-01-01T00:00:00Z\",\"cost\":{\"input_tokens\":100,"
      + "\"output_tokens\":100,\"total_tokens\":200,\"llm_calls\":2,\"tool_calls\":1,\"cost_usd\":0.002}}}";
  private static final String OLD_TOOLS = "{\"exchange_entry_id\":\"LED-x2\",\"text\":\"\",\"tool_uses\":[{\"id\":\"tu-2\","
      + "\"name\":\"list_packages\",\"input\":{}}],\"finish_reason\":\"tool_use\",\"input_tokens\":50,\"output_tokens\":50,"
      + "\"cost\":0.001,\"model_id\":\"fake-model\",\"replayed\":false,\"prompt_ref\":\"LED-prompt-WO-0000abcd-0001-02\"}";
  private static final String OLD_ANSWER = "{\"exchange_entry_id\":\"LED-deg1\",\"text\":\"degraded answer\",\"tool_uses\":[],"
      + "\"finish_reason\":\"stop\",\"input_tokens\":10,\"output_tokens\":5,\"cost\":0.0,\"model_id\":\"fake\",\"replayed\":false}";
  private static final String OLD_REFUSED = "{\"exchange_entry_id\":\"LED-r1\",\"text\":\"\",\"tool_uses\":[],\"input_tokens\":0,"
      + "\"output_tokens\":0,\"cost\":0.0,\"model_id\":\"m\",\"replayed\":false,\"rejected_code\":\"budget_exhausted\","
      + "\"rejected_message\":\"no tokens left\"}";
  private static final String OLD_LEAN_REFUSED = "{\"exchange_entry_id\":\"LED-r2\",\"text\":\"\",\"tool_uses\":[],"
      + "\"input_tokens\":0,\"output_tokens\":0,\"cost\":0.0,\"replayed\":false,\"rejected_code\":\"budget_exhausted\","
      + "\"rejected_message\":\"no\",\"finished\":{\"state\":\"failed\",\"error\":{\"code\":\"budget_exhausted\","
      + "\"message\":\"no\"},\"completed_at\":\"2026-01-01T00:00:00Z\",\"cost\":{\"input_tokens\":0,\"output_tokens\":0,"
      + "\"total_tokens\":0,\"llm_calls\":0,\"tool_calls\":0,\"cost_usd\":0.0}}}";

  @Test
  void oldFinishedShapeReadsAsFinishedWithItsAnswer() {
    var f = assertInstanceOf(LlmRoundResult.Finished.class, read(OLD_FINISHED));
    assertEquals(WoState.COMPLETED, f.outcome().state());
    assertEquals("LED-x4", f.answer().orElseThrow().entryId());
    assertEquals(50, f.answer().orElseThrow().inputTokens());
    assertEquals("{\"response_text\":\"3\"}", f.text());
  }

  @Test
  void oldToolUseShapeReadsAsToolCallsWithThePreparedPrompt() {
    var t = assertInstanceOf(LlmRoundResult.ToolCalls.class, read(OLD_TOOLS));
    assertEquals("list_packages", t.toolUses().get(0).name());
    assertEquals(Optional.of("LED-prompt-WO-0000abcd-0001-02"), t.preparedPrompt());
    assertEquals("LED-x2", t.exchange().entryId());
    assertEquals(0.001, t.exchange().cost());
  }

  @Test
  void oldPlainShapeReadsAsAnswered() {
    var a = assertInstanceOf(LlmRoundResult.Answered.class, read(OLD_ANSWER));
    assertEquals("degraded answer", a.text());
    assertEquals(10, a.exchange().inputTokens());
    assertEquals(5, a.exchange().outputTokens());
  }

  @Test
  void oldRejectedShapeReadsAsRefused() {
    var r = assertInstanceOf(LlmRoundResult.Refused.class, read(OLD_REFUSED));
    assertEquals("budget_exhausted", r.code());
    assertEquals("no tokens left", r.message());
    assertEquals("LED-r1", r.exchangeEntryId());
  }

  @Test
  void oldLeanRefusalReadsAsFinishedWithoutAnAnswer() {
    var f = assertInstanceOf(LlmRoundResult.Finished.class, read(OLD_LEAN_REFUSED));
    assertEquals(WoState.FAILED, f.outcome().state());
    assertTrue(f.answer().isEmpty());
  }

  @Test
  void everyKindRoundTripsWithADiscriminator() {
    var ex = new LlmRoundResult.Exchange("LED-1", 3, 4, 0.5, "m", false, "stop");
    WoOutcome done = WoOutcome.completed(Json.object().put("text", "hi"), "2026-01-01T00:00:00Z",
        WoCost.llmCall(3, 4, 0.5));
    List<LlmRoundResult> all = List.of(new LlmRoundResult.Answered(ex, "hi"),
        new LlmRoundResult.ToolCalls(ex, List.of(new ToolUse("t1", "list_packages", null)), Optional.of("LED-p")),
        new LlmRoundResult.ToolCalls(ex, List.of(new ToolUse("t1", "list_packages", null)), Optional.empty()),
        new LlmRoundResult.Finished(done, Optional.of(ex), "hi"),
        new LlmRoundResult.Finished(done, Optional.empty(), null),
        new LlmRoundResult.Refused("budget_exhausted", "spent", "LED-2", "m"));
    for (LlmRoundResult r : all) {
      String json = write(r);
      assertTrue(json.contains("\"kind\":\"" + r.kind() + "\""), json);
      assertEquals(r, read(json), json);
    }
  }

  @Test
  void anUnknownKindIsAClearError() {
    var e = assertThrows(RuntimeException.class, () -> read("{\"kind\":\"sideways\"}"));
    assertTrue(String.valueOf(e.getCause() == null ? e.getMessage() : e.getCause().getMessage()).contains("sideways"),
        e.toString());
  }

  @Test
  void toolCallsNeedAToolUse() {
    var ex = new LlmRoundResult.Exchange("LED-1", 3, 4, 0.5, "m", false, "tool_use");
    assertThrows(IllegalArgumentException.class, () -> new LlmRoundResult.ToolCalls(ex, List.of(), Optional.empty()));
  }

  @Test
  void aFinishRequestCarriesAToolResultByReference() {
    WoFinishRequest f = WoFinishRequest.toolResult(null, "LED-tool-7");
    assertEquals("LED-tool-7", f.toolResultRef());
    assertNull(f.finalText());
  }
}
