package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trace_hash (seed 001 Q8, FMWK-008): SHA-256 over the chain's HO1m entries filtered by session
 * and work-order ids, as sorted canonical JSON, recomputed here from the raw ledger lines.
 */
class TraceHashTest {
  static final String SID = "SES-0000aaaa";
  static final String OTHER = "SES-0000bbbb";
  static final String W1 = "WO-0000aaaa-0001-01";
  static final String W2 = "WO-0000aaaa-0001-02";
  static final String W3 = "WO-0000aaaa-0001-03";
  static final List<String> CHAIN = List.of(W1, W2);

  @TempDir Path a;
  @TempDir Path b;

  /** HO1m entries with deterministic ids and timestamps, so two planes can hold identical lines. */
  static void write(LedgerStream ho1, String type, String sid, String wo, Consumer<ObjectNode> meta) {
    ObjectNode m = Json.object().put("tier", "ho1").put("wo_id", wo).put("session_id", sid);
    meta.accept(m);
    ho1.write(LedgerEntry.builder(type).submissionId(wo).decision("OK").reason(type + " " + wo).metadata(m)
        .idempotencyKey(type + "/" + sid + "/" + wo).timestamp("2026-01-01T00:00:0" + (ho1.size() % 10) + "Z").build());
  }

  static void chain(LedgerStream ho1, long synthOutputTokens) {
    write(ho1, "WO_EXECUTING", SID, W1, m -> m.putObject("prompt").put("system", "s").put("user", "ünïcode \"q\""));
    write(ho1, "LLM_CALL", SID, W1, m -> m.put("input_tokens", 50).put("output_tokens", 20).put("cost", 0.0015));
    write(ho1, "WO_COMPLETED", SID, W1, m -> m.putObject("output_result").put("speech_act", "greeting"));
    write(ho1, "WO_EXECUTING", SID, W2, m -> m.put("contract_id", "PRC-SYNTHESIZE-001"));
    write(ho1, "LLM_CALL", SID, W2, m -> m.put("input_tokens", 80).put("output_tokens", synthOutputTokens));
    write(ho1, "WO_COMPLETED", SID, W2, m -> m.putArray("list").add(1).add("two"));
  }

  /** The seed's recipe, independently of the product's JSON code: plain Jackson maps, sorted keys. */
  static String recompute(Path home, String sid, Collection<String> woIds) throws Exception {
    ObjectMapper plain = new ObjectMapper();
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(home.resolve("HO1/ledger/worker.jsonl"), StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      Map<String, Object> entry = plain.readValue(line, new TypeReference<Map<String, Object>>() {});
      Map<?, ?> meta = (Map<?, ?>) entry.get("metadata");
      if (sid.equals(meta.get("session_id")) && woIds.contains(meta.get("wo_id"))) {
        lines.add(plain.writeValueAsString(sortedDeep(entry)));
      }
    }
    Collections.sort(lines);
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
  }

  static Object sortedDeep(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new TreeMap<>();
      m.forEach((k, x) -> out.put((String) k, sortedDeep(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(TraceHashTest::sortedDeep).toList();
    }
    return v;
  }

  // Seed 001 Q8: "reads HO1m entries (filter by session_id + wo_ids), concatenates as sorted JSON, SHA256".
  @Test
  void traceHash_isTheSha256OfTheChainsHo1mEntries_asSortedCanonicalJson() throws Exception {
    try (Ledgers l = Ledgers.open(a)) {
      chain(l.ho1(), 30);
      write(l.ho1(), "WO_EXECUTING", SID, W3, m -> { });
      write(l.ho1(), "LLM_CALL", OTHER, W1, m -> m.put("note", "same wo id, other session"));
      String expected = recompute(a, SID, CHAIN);
      assertEquals(expected, TraceHash.of(l.ho1(), SID, CHAIN));
      assertNotEquals(recompute(a, SID, List.of(W1, W2, W3)), expected, "W3 is outside the chain");
    }
  }

  // Seed 001 Q8: the hash detects a changed trace: any differing HO1m entry of the chain changes it.
  @Test
  void traceHash_differsWhenAnyEntryOfTheChainDiffers() throws Exception {
    try (Ledgers la = Ledgers.open(a); Ledgers lb = Ledgers.open(b)) {
      chain(la.ho1(), 30);
      chain(lb.ho1(), 30);
      assertEquals(TraceHash.of(la.ho1(), SID, CHAIN), TraceHash.of(lb.ho1(), SID, CHAIN), "identical traces");
      try (Ledgers lc = Ledgers.open(a.resolve("c"))) {
        chain(lc.ho1(), 31);
        assertNotEquals(TraceHash.of(la.ho1(), SID, CHAIN), TraceHash.of(lc.ho1(), SID, CHAIN));
        assertEquals(recompute(a.resolve("c"), SID, CHAIN), TraceHash.of(lc.ho1(), SID, CHAIN));
      }
      String before = TraceHash.of(la.ho1(), SID, CHAIN);
      write(la.ho1(), "TOOL_CALL", SID, W2, m -> m.put("tool_id", "list_packages"));
      assertNotEquals(before, TraceHash.of(la.ho1(), SID, CHAIN), "a new entry of the chain changes the hash");
    }
  }

  // Seed 001 Q8 (filter by session_id + wo_ids): other sessions and other work orders do not count.
  @Test
  void traceHash_ignoresEntriesOfOtherSessionsAndOtherWorkOrders() throws IOException {
    try (Ledgers l = Ledgers.open(a)) {
      chain(l.ho1(), 30);
      String before = TraceHash.of(l.ho1(), SID, CHAIN);
      write(l.ho1(), "WO_EXECUTING", OTHER, "WO-0000bbbb-0001-01", m -> { });
      write(l.ho1(), "LLM_CALL", OTHER, W2, m -> m.put("note", "same wo id, other session"));
      write(l.ho1(), "WO_EXECUTING", SID, W3, m -> { });
      assertEquals(before, TraceHash.of(l.ho1(), SID, CHAIN));
    }
  }
}
