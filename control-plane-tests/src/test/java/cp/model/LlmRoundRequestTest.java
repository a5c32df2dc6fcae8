package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DataConverterException;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A round request is typed (issue 21): a prompt {@code Prepared} or {@code ToPrepare}, the work
 * order's sampling {@code Overrides}, and for the lean protocol a {@code Closing}, instead of 14
 * flat fields four of them nullable. On the wire it keeps the flat shape it always had: every
 * round request in every recorded history reads, and writes back the same JSON; the shapes the
 * runners never send are refused with the reason.
 */
class LlmRoundRequestTest {
  private static final DataConverter CONVERTER = DefaultDataConverter.newDefaultInstance()
      .withPayloadConverterOverrides(new JacksonJsonPayloadConverter(Json.newMapper()));
  private static final Path HISTORIES = Path.of("src/test/resources/histories");
  private static final WoConstraints C = new WoConstraints(ContractIds.SYNTHESIZE, 1000, 3, 60, List.of(), null, null);
  private static final WorkOrder DISPATCHED = WorkOrder.planned("WO-0000abcd-0001-02", WoType.SYNTHESIZE,
      "SES-0000abcd", "ADMIN", Json.object().put("user_input", "hi"), C, "2026-01-01T00:00:00Z")
      .transitionTo(WoState.DISPATCHED);

  private static LlmRoundRequest read(String json) {
    Payload payload = Payload.newBuilder()
        .putMetadata("encoding", com.google.protobuf.ByteString.copyFromUtf8("json/plain"))
        .setData(com.google.protobuf.ByteString.copyFrom(json, StandardCharsets.UTF_8)).build();
    return CONVERTER.fromPayload(payload, LlmRoundRequest.class, LlmRoundRequest.class);
  }

  private static JsonNode write(LlmRoundRequest r) {
    return Json.parse(CONVERTER.toPayload(r).orElseThrow().getData().toStringUtf8());
  }

  private static String wire(String promptRef, boolean dispatched, boolean closing) {
    return "{\"wo_id\":\"WO-0000abcd-0001-02\",\"session_id\":\"SES-0000abcd\",\"agent_class\":\"ADMIN\","
        + "\"contract_id\":\"PRC-SYNTHESIZE-001\"" + (promptRef == null ? "" : ",\"prompt_ref\":\"" + promptRef + "\"")
        + ",\"transcript\":[],\"allowed_tools\":[\"list_packages\"],\"round\":1,\"token_budget_remaining\":1000"
        + ",\"temperature\":0.0"
        + (dispatched ? ",\"dispatched\":" + Json.write(Json.tree(DISPATCHED)) : "")
        + (closing ? ",\"cost_before\":" + Json.write(Json.tree(WoCost.ZERO)) + ",\"wo_type\":\"synthesize\"" : "")
        + "}";
  }

  @Test
  void theThreeShapesTheRunnersSend_readTyped_andWriteBackTheSameJson() {
    LlmRoundRequest classic = read(wire("LED-p", false, false));
    LlmRoundRequest first = read(wire(null, true, true));
    LlmRoundRequest later = read(wire("LED-p", false, true));

    assertFalse(classic.lean(), "pre-lean-turn round");
    assertEquals(new LlmRoundRequest.Prepared("LED-p"), classic.prompt());
    assertEquals(Optional.of(0.0), classic.overrides().temperature());
    assertEquals(Optional.empty(), classic.overrides().maxTokens());
    assertTrue(first.lean(), "current round 1");
    assertEquals(DISPATCHED.woId(), assertInstanceOf(LlmRoundRequest.ToPrepare.class, first.prompt()).workOrder().woId());
    assertEquals(new LlmRoundRequest.Closing(WoCost.ZERO, WoType.SYNTHESIZE), first.closing().orElseThrow());
    assertTrue(later.lean(), "current round 2+");
    for (String json : List.of(wire("LED-p", false, false), wire(null, true, true), wire("LED-p", false, true))) {
      assertEquals(Json.parse(json), write(read(json)), "the flat wire shape is unchanged");
    }
  }

  @Test
  void everyRoundRequestInEveryRecordedHistory_readsAndWritesBackUnchanged() throws IOException {
    int seen = 0;
    try (Stream<Path> files = Files.list(HISTORIES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        WorkflowExecutionHistory history = WorkflowExecutionHistory.fromJson(Files.readString(file));
        for (HistoryEvent e : history.getEvents()) {
          if (!e.hasActivityTaskScheduledEventAttributes()) {
            continue;
          }
          var a = e.getActivityTaskScheduledEventAttributes();
          if (!"Ho1LlmRound".equals(a.getActivityType().getName())) {
            continue;
          }
          Payload p = a.getInput().getPayloads(0);
          String json = p.getData().toStringUtf8();
          if (!json.trim().startsWith("{")) {
            continue; // an encrypted history: its payloads are ciphertext
          }
          LlmRoundRequest r = CONVERTER.fromPayload(p, LlmRoundRequest.class, LlmRoundRequest.class);
          assertEquals(Json.parse(json), write(r), file.getFileName() + " event " + e.getEventId());
          seen++;
        }
      }
    }
    assertTrue(seen > 10, "round requests found in the recorded histories: " + seen);
  }

  @Test
  void aPromptToPrepareAndAPreparedPrompt_areExclusive_onTheWire() {
    String both = wire("LED-p", true, true);
    String neither = wire(null, false, true);

    DataConverterException e = assertThrows(DataConverterException.class, () -> read(both));
    assertTrue(String.valueOf(rootMessage(e)).contains("prompt_ref") && rootMessage(e).contains("dispatched"),
        rootMessage(e));
    assertThrows(DataConverterException.class, () -> read(neither));
  }

  // Issue 21 (plan-in-round 1): a first round that also writes its work order's plan says so on the
  // wire (record_plan true); without the flag (every round recorded before) it does not.
  @Test
  void aFirstRoundThatRecordsThePlan_saysSoOnTheWire_andOneThatDoesNot_leavesTheFieldOut() {
    String first = wire(null, true, true);
    String json = first.substring(0, first.length() - 1) + ",\"record_plan\":true}";
    LlmRoundRequest r = read(json);
    assertTrue(assertInstanceOf(LlmRoundRequest.ToPrepare.class, r.prompt()).recordPlan());
    assertEquals(Json.parse(json), write(r));
    LlmRoundRequest without = read(wire(null, true, true));
    assertFalse(((LlmRoundRequest.ToPrepare) without.prompt()).recordPlan());
    assertFalse(write(without).has("record_plan"));
  }

  @Test
  void finishingNeedsTheCostAndTheType_andPreparingNeedsFinishing() {
    String onlyCost = wire("LED-p", false, false).replace("}", "") + ",\"cost_before\":"
        + Json.write(Json.tree(WoCost.ZERO)) + "}";
    assertThrows(DataConverterException.class, () -> read(onlyCost));
    assertThrows(IllegalArgumentException.class, () -> new LlmRoundRequest("WO-1", "SES-1", "ADMIN",
        ContractIds.SYNTHESIZE, new LlmRoundRequest.ToPrepare(DISPATCHED), List.of(), List.of(), 1, 10,
        LlmRoundRequest.Overrides.NONE, Optional.empty()));
  }

  private static String rootMessage(Throwable t) {
    Throwable r = t;
    while (r.getCause() != null && r.getCause() != r) {
      r = r.getCause();
    }
    return r.getMessage();
  }
}
