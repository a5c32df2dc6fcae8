package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.faults.KillAt;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1: a process killed half-way through writing an EXCHANGE (a paid LLM call) or a
 * TOOL_CALL (a tool that ran) leaves a torn line. The next process to open the ledger cuts it, keeps
 * it in a {@code .torn-*} file, and records what it proves in its place: the event, its tokens and
 * cost, its identity, findable by the retried call through its idempotency key.
 */
class TornTailTest {
  @TempDir Path home;

  private Path hotFile() {
    return new PlaneLayout(home).ledgerPath(Tier.HOT, null);
  }

  private static LedgerEntry exchange(String key) {
    // As the gateway writes it: identity and usage, then the large prompt and response.
    var meta = Json.object().put(LedgerKeys.SESSION_ID, "SES-0000beef").put(LedgerKeys.WO_ID, "WO-0000beef-0001-02");
    meta.set("prompt", Json.object().put("system", "x".repeat(4000)));
    meta.put("response", "y".repeat(3000)).put(LedgerKeys.OUTCOME, "success").put("input_tokens", 1127)
        .put("output_tokens", 205).put("cost", 0.0125).put("activity_id", "7");
    return LedgerEntry.builder("EXCHANGE").submissionId("PRC-SYNTHESIZE-001").decision("SUCCESS")
        .reason("exchange completed").idempotencyKey(key).metadata(meta).build();
  }

  @Test
  void aTornExchange_isRecordedWithItsTokensWhereTheLineWas_andTheRetryFindsIt() throws Exception {
    KillAt kill = new KillAt("ledger-torn:EXCHANGE");
    LedgerOptions opts = LedgerOptions.of(Durability.FSYNC_EACH).withHooks(LedgerHooks.NONE.withFaults(kill));
    try (Ledger hot = Ledger.open(hotFile(), opts)) {
      hot.write(LedgerEntry.builder("SESSION_START").metadata(Json.object().put("session_id", "SES-0000beef")).build());
      assertThrows(KillAt.Killed.class, () -> hot.write(exchange("EXCHANGE/wf/run/7")));
    }
    byte[] torn = Files.readAllBytes(hotFile());
    assertFalse(new String(torn, StandardCharsets.UTF_8).endsWith("\n"), "half a line is on disk");

    // Verify (read-only) reports it and changes nothing; the next process to open the ledger recovers it.
    VerifyResult before = Ledger.verifyFile(hotFile(), LedgerOptions.of(Durability.FSYNC_EACH), true);
    assertFalse(before.ok());
    assertTrue(before.reason().contains("incomplete final line"), before.reason());
    assertEquals(torn.length, Files.size(hotFile()));

    try (Ledger hot = Ledger.open(hotFile(), LedgerOptions.of(Durability.FSYNC_EACH))) {
      assertTrue(hot.verify().ok(), hot.verify().reason());
      List<LedgerEntry> all = hot.readAll();
      assertEquals(2, all.size());
      LedgerEntry rec = all.get(1);
      assertEquals("EXCHANGE", rec.eventType());
      assertEquals("TORN", rec.decision());
      assertEquals(TornTail.TORN, rec.metaText(LedgerKeys.OUTCOME), "never read as a successful exchange");
      assertEquals(1127, (long) rec.metaNumber("input_tokens"));
      assertEquals(205, (long) rec.metaNumber("output_tokens"));
      assertEquals(0.0125, rec.metaNumber("cost"));
      assertEquals("SES-0000beef", rec.sessionId());
      assertEquals("WO-0000beef-0001-02", rec.workOrderId());
      assertEquals("success", rec.meta(TornTail.FIELD).path("lost_outcome").asText());
      assertEquals(rec.entryId(), hot.tornAttempt("EXCHANGE/wf/run/7").orElseThrow().entryId());
      assertTrue(hot.idForKey("EXCHANGE/wf/run/7").isEmpty(), "the lost entry itself is not claimed to exist");
      try (Stream<Path> s = Files.list(hotFile().getParent())) {
        Path kept = s.filter(p -> p.getFileName().toString().startsWith("governance.jsonl.torn-")).findFirst()
            .orElseThrow();
        assertEquals(rec.meta(TornTail.FIELD).path("file").asText(), kept.getFileName().toString());
      }
      // The retry then writes the real entry; both verify.
      hot.write(exchange("EXCHANGE/wf/run/7"));
      assertTrue(hot.verify().ok());
    }
  }

  @Test
  void aTornToolCall_isRecordedSoTheSecondRunOfTheToolIsVisible() {
    KillAt kill = new KillAt("ledger-torn:TOOL_CALL");
    Path ho1 = new PlaneLayout(home).ledgerPath(Tier.HO1, null);
    LedgerEntry call = LedgerEntry.builder("TOOL_CALL").idempotencyKey("TOOL_CALL/wf/run/9")
        .metadata(Json.object().put("session_id", "SES-0000beef").put("tool_id", "write_file").put("status", "ok")
            .put("result", "z".repeat(2000)))
        .build();
    try (Ledger l = Ledger.open(ho1, LedgerOptions.of(Durability.NONE).withHooks(LedgerHooks.NONE.withFaults(kill)))) {
      assertThrows(KillAt.Killed.class, () -> l.write(call));
    }
    try (Ledger l = Ledger.open(ho1, LedgerOptions.of(Durability.NONE))) {
      LedgerEntry rec = l.tornAttempt("TOOL_CALL/wf/run/9").orElseThrow();
      assertEquals("TOOL_CALL", rec.eventType());
      assertEquals("write_file", rec.metaText("tool_id"));
      assertEquals(TornTail.TORN, rec.metaText("status"));
      assertEquals("ok", rec.meta(TornTail.FIELD).path("lost_status").asText());
      assertTrue(rec.reason().contains("the work it records was done, and a retry did it again"), rec.reason());
    }
  }

  @Test
  void aValueCutByTheTear_isDropped_notRecordedWrong() {
    String line = "{\"entry_id\":\"LED-1\",\"event_type\":\"EXCHANGE\",\"metadata\":{\"session_id\":\"S\","
        + "\"input_tokens\":1234";
    LedgerEntry rec = TornTail.recover(line.getBytes(StandardCharsets.UTF_8), Path.of("x.torn-1")).orElseThrow();
    assertEquals("S", rec.sessionId());
    assertTrue(rec.meta("input_tokens") == null, "1234 might have been 12345: " + rec);
    assertTrue(TornTail.recover("{\"entry_id\":\"LED-1\",\"eve".getBytes(StandardCharsets.UTF_8),
        Path.of("x.torn-1")).isEmpty(), "nothing to record without the event type");
  }
}
