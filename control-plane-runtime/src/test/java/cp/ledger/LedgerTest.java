package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerTest {
  @TempDir Path dir;

  private Path file() {
    return dir.resolve("HOT/ledger/governance.jsonl");
  }

  private Ledger open() {
    return Ledger.open(file(), LedgerOptions.of(Durability.FSYNC_EACH));
  }

  static LedgerEntry entry(String type, String session, String wo) {
    var meta = Json.object().put("session_id", session);
    if (wo != null) {
      meta.put("wo_id", wo);
    }
    return LedgerEntry.builder(type).submissionId("PRC-TEST-001").decision("OK").reason("test " + type)
        .metadata(meta).build();
  }

  private List<String> writeN(int n) {
    List<String> ids = new ArrayList<>();
    try (Ledger l = open()) {
      for (int i = 0; i < n; i++) {
        ids.add(l.write(entry("EVENT_" + (i % 3), "SES-0000000" + (i % 2), "WO-" + i)));
      }
    }
    return ids;
  }

  private List<String> lines() throws IOException {
    return new ArrayList<>(Files.readAllLines(file(), StandardCharsets.UTF_8));
  }

  private void rewrite(List<String> lines) throws IOException {
    Files.writeString(file(), String.join("\n", lines) + (lines.isEmpty() ? "" : "\n"), StandardCharsets.UTF_8);
  }

  @Test
  void write_returnsIdAndFillsChainFields() {
    try (Ledger l = open()) {
      String id = l.write(entry("SESSION_START", "SES-1a2b3c4d", null));
      assertTrue(id.matches("LED-[0-9a-f]{16}"), id);
      LedgerEntry back = l.byId(id).orElseThrow();
      assertEquals("SESSION_START", back.eventType());
      assertEquals(ChainCodec.GENESIS, back.prevHash());
      assertEquals(64, back.hash().length());
      assertTrue(back.timestamp().endsWith("Z"), back.timestamp());
      String id2 = l.write(entry("SESSION_END", "SES-1a2b3c4d", null));
      assertEquals(back.hash(), l.byId(id2).orElseThrow().prevHash());
    }
  }

  // Issue 21: reads keep parsed entries (JsonlReads.CACHE_BYTES); whatever is kept or evicted, every
  // read returns each entry exactly as written, newest first or in file order, again and again.
  @Test
  void rereads_ofMoreLinesThanReadsKeep_returnEveryEntryAsWritten() {
    String padding = "x".repeat(10_000);
    int n = (int) (2 * JsonlReads.CACHE_BYTES / padding.length());
    List<String> ids = new ArrayList<>();
    try (Ledger l = open()) {
      for (int i = 0; i < n; i++) {
        ids.add(l.write(LedgerEntry.builder("EVENT").submissionId("S").decision("OK").reason("entry " + i)
            .metadata(Json.object().put("session_id", "SES-0000000" + (i % 2)).put("i", i).put("pad", padding))
            .build()));
      }
      for (int pass = 0; pass < 3; pass++) {
        List<LedgerEntry> all = l.readAll();
        assertEquals(ids, all.stream().map(LedgerEntry::entryId).toList(), "pass " + pass);
        for (int i = 0; i < n; i++) {
          assertEquals(i, all.get(i).meta("i").asInt());
          assertEquals("entry " + i, all.get(i).reason());
        }
        List<String> newestFirst = new ArrayList<>();
        l.visitNewestFirst(LedgerQuery.session("SES-00000001"), e -> newestFirst.add(e.entryId()));
        List<String> odd = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
          if (i % 2 == 1) {
            odd.add(ids.get(i));
          }
        }
        assertEquals(odd, newestFirst, "pass " + pass);
      }
    }
  }

  @Test
  void readers_filterByEventTypeSessionWorkOrderAndLastN() {
    writeN(12);
    try (Ledger l = open()) {
      assertEquals(4, l.byEventType("EVENT_0").size());
      assertEquals(6, l.bySession("SES-00000001").size());
      assertEquals(1, l.byWorkOrder("WO-7").size());
      List<LedgerEntry> last = l.lastN(3);
      assertEquals(List.of("WO-9", "WO-10", "WO-11"), last.stream().map(LedgerEntry::workOrderId).toList());
      List<LedgerEntry> q = l.query(new LedgerQuery("EVENT_1", "SES-00000001", null, 1));
      assertEquals(1, q.size());
      assertEquals("WO-7", q.get(0).workOrderId());
      assertTrue(l.bySession("SES-nope").isEmpty());
    }
  }

  @Test
  void workOrderReader_findsExchangeRecordsByWorkOrderIdField() {
    try (Ledger l = open()) {
      l.write(LedgerEntry.builder("EXCHANGE").metadata(Json.object().put("work_order_id", "WO-x")).build());
      assertEquals(1, l.byWorkOrder("WO-x").size());
    }
  }

  @Test
  void idempotentWrite_returnsExistingIdAndDoesNotGrowTheFile() throws IOException {
    try (Ledger l = open()) {
      LedgerEntry e = entry("LLM_CALL", "SES-1", "WO-1").toBuilder().idempotencyKey("wf/run/7/LLM_CALL").build();
      String first = l.write(e);
      long size = Files.size(file());
      String again = l.write(entry("LLM_CALL", "SES-1", "WO-1").toBuilder().idempotencyKey("wf/run/7/LLM_CALL")
          .reason("a retried activity writes a slightly different reason").build());
      assertEquals(first, again);
      assertEquals(size, Files.size(file()));
      assertEquals(1, l.size());
    }
    try (Ledger l = open()) {
      String afterReopen = l.write(entry("LLM_CALL", "SES-1", "WO-1").toBuilder().idempotencyKey("wf/run/7/LLM_CALL").build());
      assertEquals(1, l.size());
      assertEquals(l.readAll().get(0).entryId(), afterReopen);
    }
  }

  @Test
  void verify_passesOnAnIntactLedger() {
    writeN(20);
    try (Ledger l = open()) {
      VerifyResult r = l.verify();
      assertTrue(r.ok(), r.reason());
      assertEquals(20, r.entries());
    }
  }

  @Test
  void tamper_editingAnyLine_failsVerifyAtThatLine() throws IOException {
    writeN(6);
    List<String> original = lines();
    for (int i = 0; i < original.size(); i++) {
      List<String> edited = new ArrayList<>(original);
      edited.set(i, edited.get(i).replace("\"reason\":\"test", "\"reason\":\"TEST"));
      assertNotEquals(original.get(i), edited.get(i));
      rewrite(edited);
      try (Ledger l = open()) {
        VerifyResult r = l.verify();
        assertFalse(r.ok());
        assertEquals(i + 1, r.firstBadLine(), "edited line " + (i + 1) + ": " + r.reason());
        assertTrue(r.reason().contains("hash mismatch"), r.reason());
      }
    }
  }

  @Test
  void tamper_deletingAnyLine_failsVerifyAtThatLine() throws IOException {
    writeN(6);
    List<String> original = lines();
    for (int i = 0; i < original.size(); i++) {
      List<String> edited = new ArrayList<>(original);
      edited.remove(i);
      rewrite(edited);
      try (Ledger l = open()) {
        VerifyResult r = l.verify();
        assertFalse(r.ok(), "deleted line " + (i + 1));
        assertEquals(i + 1, r.firstBadLine(), "deleted line " + (i + 1) + ": " + r.reason());
      }
    }
  }

  @Test
  void tamper_swappingAnyTwoNeighbours_failsVerifyAtTheFirst() throws IOException {
    writeN(6);
    List<String> original = lines();
    for (int i = 0; i + 1 < original.size(); i++) {
      List<String> edited = new ArrayList<>(original);
      edited.set(i, original.get(i + 1));
      edited.set(i + 1, original.get(i));
      rewrite(edited);
      try (Ledger l = open()) {
        VerifyResult r = l.verify();
        assertFalse(r.ok());
        assertEquals(i + 1, r.firstBadLine(), r.reason());
      }
    }
  }

  @Test
  void tamper_rewritingTheWholeChainFromALine_isCaughtByTheHead() throws IOException {
    writeN(4);
    List<String> original = lines();
    // A forger recomputes every hash after changing line 2: the chain is self-consistent again,
    // but the head still names the old last hash.
    List<String> forged = new ArrayList<>(original.subList(0, 1));
    String prev = Json.parse(original.get(0)).get("hash").asText();
    for (int i = 1; i < original.size(); i++) {
      var node = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(original.get(i));
      if (i == 1) {
        node.put("reason", "forged");
      }
      node.remove("hash");
      node.put("prev_hash", prev);
      prev = ChainCodec.hashOf(node);
      node.put("hash", prev);
      forged.add(Json.write(node));
    }
    rewrite(forged);
    try (Ledger l = open()) {
      VerifyResult r = l.verify();
      assertFalse(r.ok());
      assertEquals(4, r.firstBadLine(), r.reason());
    }
  }

  @Test
  void tornTail_everyCutOfTheLastLine_isRepairedOnOpen() throws IOException {
    // A write tears before it is acknowledged: the head still says 2 entries (the head after the
    // third write counts it, and a cut in an acknowledged line is tampering: LedgerTamperTest).
    writeN(2);
    byte[] head = Files.readAllBytes(LedgerHead.pathFor(file()));
    try (Ledger l = open()) {
      l.write(entry("EVENT_2", "SES-00000000", "WO-2"));
    }
    byte[] whole = Files.readAllBytes(file());
    String text = new String(whole, StandardCharsets.UTF_8);
    int lastStart = text.lastIndexOf('\n', text.length() - 2) + 1;
    List<String> earlier = lines().subList(0, 2);
    int lastLen = whole.length - lastStart - 1;
    // Offsets 1..lastLen: a write that stopped after k bytes (k = lastLen: the line without its
    // newline). Offset 0 is the whole line gone, which is a deletion (see the delete test).
    for (int k = 1; k <= lastLen; k++) {
      byte[] cut = java.util.Arrays.copyOf(whole, lastStart + k);
      Files.write(file(), cut);
      Files.write(LedgerHead.pathFor(file()), head);
      try (Ledger l = open()) {
        VerifyResult r = l.verify();
        assertTrue(r.ok(), "cut at " + k + ": " + r.reason());
        List<String> now = lines();
        assertEquals(earlier, now.subList(0, 2), "earlier entries intact after cut at " + k);
        String id = l.write(entry("AFTER_REPAIR", "SES-x", null));
        assertTrue(l.verify().ok(), "chain continues after cut at " + k);
        assertEquals("AFTER_REPAIR", l.byId(id).orElseThrow().eventType());
      }
      Files.list(dir.resolve("HOT/ledger")).filter(p -> p.getFileName().toString().contains(".torn-"))
          .forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void tornTail_aCompleteEntryMissingOnlyItsNewline_isKept() throws IOException {
    writeN(2);
    byte[] whole = Files.readAllBytes(file());
    Files.write(file(), java.util.Arrays.copyOf(whole, whole.length - 1));
    try (Ledger l = open()) {
      assertEquals(2, l.size());
      assertTrue(l.verify().ok());
    }
  }

  @Test
  void tornTail_cutBytesAreSavedNotLost() throws IOException {
    writeN(1);
    byte[] head = Files.readAllBytes(LedgerHead.pathFor(file()));
    writeN(1);
    // The second write tore before it was acknowledged: the head counts one entry.
    Files.write(LedgerHead.pathFor(file()), head);
    byte[] whole = Files.readAllBytes(file());
    Files.write(file(), java.util.Arrays.copyOf(whole, whole.length - 20));
    try (Ledger l = open()) {
      assertEquals(2, l.size(), "the first entry, and what the torn second one held (issue 20)");
      assertEquals("TORN", l.lastN(1).get(0).decision());
      assertTrue(l.verify().ok(), l.verify().reason());
    }
    try (var files = Files.list(dir.resolve("HOT/ledger"))) {
      assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("governance.jsonl.torn-")));
    }
  }

  @Test
  void corruptMiddleLine_refusesAppendsUntilRepaired_andQuarantinesTheRest() throws IOException {
    writeN(5);
    List<String> l5 = lines();
    l5.set(2, "{this is not json");
    rewrite(l5);
    try (Ledger l = open()) {
      VerifyResult r = l.verify();
      assertEquals(3, r.firstBadLine());
      assertTrue(r.reason().contains("not valid JSON"), r.reason());
      LedgerCorruptException e = assertThrows(LedgerCorruptException.class, () -> l.write(entry("X", "S", null)));
      assertTrue(e.getMessage().contains("line 3"), e.getMessage());
      assertEquals(5, lines().size(), "a refused append writes nothing");
      Path quarantine = l.repairFile().orElseThrow();
      assertTrue(Files.readString(quarantine).contains("{this is not json"));
      assertEquals(3, Files.readAllLines(quarantine).size());
      assertTrue(l.verify().ok());
      assertEquals("LEDGER_REPAIRED", l.lastN(1).get(0).eventType());
      l.write(entry("AFTER", "S", null));
      assertTrue(l.verify().ok());
      assertEquals(4, l.size());
    }
  }

  @Test
  void brokenLedger_canStillBeRead() throws IOException {
    writeN(3);
    List<String> l3 = lines();
    l3.set(1, l3.get(1).replace("test", "TEST"));
    rewrite(l3);
    try (Ledger l = open()) {
      assertEquals(3, l.readAll().size());
      assertTrue(l.brokenChain().isPresent());
    }
  }

  @Test
  void eightThreads_appendConcurrently_intoOneValidChain() throws Exception {
    int threads = 8;
    int perThread = 100;
    Set<String> ids = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try (Ledger l = Ledger.open(file(), LedgerOptions.of(Durability.BATCHED))) {
      List<Thread> ts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int tn = t;
        Thread th = new Thread(() -> {
          for (int i = 0; i < perThread; i++) {
            ids.add(l.write(entry("T" + tn, "SES-" + tn, "WO-" + tn + "-" + i)));
          }
        });
        th.start();
        ts.add(th);
      }
      for (Thread t : ts) {
        t.join();
      }
      assertEquals(threads * perThread, ids.size());
      assertEquals(threads * perThread, l.size());
      assertTrue(l.verify().ok());
      for (int t = 0; t < threads; t++) {
        assertEquals(perThread, l.bySession("SES-" + t).size());
      }
    }
  }

  @Test
  void everyDurabilityPolicy_writesAVerifiableChain() {
    for (Durability d : Durability.values()) {
      Path p = dir.resolve(d.name() + ".jsonl");
      try (Ledger l = Ledger.open(p, LedgerOptions.of(d))) {
        for (int i = 0; i < 10; i++) {
          l.write(entry("E", "S", null));
        }
        assertTrue(l.verify().ok(), d.name());
      }
      try (Ledger l = Ledger.open(p, LedgerOptions.of(d))) {
        assertEquals(10, l.size(), d.name());
      }
    }
  }

  @Test
  void metadataWithNumbersAndUnicode_verifiesAfterReopen() {
    try (Ledger l = open()) {
      l.write(LedgerEntry.builder("E").metadata(Json.object().put("latency_ms", 12.5).put("big", 1e20)
          .put("small", 1.0e-7).put("n", Long.MAX_VALUE).put("text", "héllo \u2603 \"quoted\"\n\t")).build());
    }
    try (Ledger l = open()) {
      assertTrue(l.verify().ok(), l.verify().reason());
      assertEquals("héllo \u2603 \"quoted\"\n\t", l.readAll().get(0).metaText("text"));
    }
  }

  @Test
  void sameFileOpenedTwice_sharesOneInstance() {
    try (Ledger a = open(); Ledger b = open()) {
      assertTrue(a == b);
      a.write(entry("E", "S", null));
      assertEquals(1, b.size());
    }
  }

  @Test
  void duplicateExplicitEntryId_isRefused() {
    try (Ledger l = open()) {
      l.write(entry("E", "S", null).toBuilder().entryId("LED-fixed").build());
      LedgerException e = assertThrows(LedgerException.class,
          () -> l.write(entry("E", "S", null).toBuilder().entryId("LED-fixed").build()));
      assertTrue(e.getMessage().contains("LED-fixed"));
    }
  }

  @Test
  void ids_areUniqueAcrossManyWrites() {
    Set<String> ids = new HashSet<>(writeN(500));
    assertEquals(500, ids.size());
  }

  // A worker stopped with shutdownNow() interrupts its activity threads; an interrupted thread that then
  // wrote an entry closed the ledger's channel for the whole process (FileChannel is interruptible), and
  // every later write failed with ClosedChannelException.
  @Test
  void writeFromAnInterruptedThread_succeeds_keepsTheFlag_andLeavesTheLedgerUsable() throws Exception {
    try (Ledger l = open()) {
      java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.atomic.AtomicBoolean stillInterrupted = new java.util.concurrent.atomic.AtomicBoolean();
      Thread t = new Thread(() -> {
        Thread.currentThread().interrupt();
        try {
          l.write(entry("EXCHANGE", "SES-1", null));
        } catch (Throwable e) {
          failed.set(e);
        }
        stillInterrupted.set(Thread.currentThread().isInterrupted());
      });
      t.start();
      t.join();
      assertEquals(null, failed.get(), "the interrupted writer's entry");
      assertTrue(stillInterrupted.get(), "the interrupt is kept for the caller");
      l.write(entry("EXCHANGE", "SES-1", null));
      assertEquals(2, l.size());
    }
  }
}
