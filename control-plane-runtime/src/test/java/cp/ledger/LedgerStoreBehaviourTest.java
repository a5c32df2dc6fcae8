package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The behaviour every ledger store must have, run against each ({@link StoreFixture}): the JSONL
 * files and a real PostgreSQL (embedded, or {@code CP_TEST_POSTGRES_URL}).
 */
class LedgerStoreBehaviourTest {
  @TempDir static Path dirs;
  private static int dirCount;
  private final List<StoreFixture> opened = new ArrayList<>();

  static final StreamId HOT = new StreamId(Tier.HOT, null);
  static final StreamId HO2 = new StreamId(Tier.HO2, "ADMIN");

  static Stream<String> stores() {
    return Stream.of("jsonl", "postgresql");
  }

  private StoreFixture fixture(String kind) {
    StoreFixture f = kind.equals("jsonl") ? new StoreFixture.Jsonl(dirs.resolve("plane-" + (++dirCount)))
        : new StoreFixture.Postgres();
    opened.add(f);
    return f;
  }

  @AfterEach
  void closeAll() {
    opened.forEach(StoreFixture::close);
  }

  static LedgerEntry entry(String type, String session, String wo) {
    var meta = Json.object().put("session_id", session);
    if (wo != null) {
      meta.put("wo_id", wo);
    }
    return LedgerEntry.builder(type).submissionId("PRC-TEST-001").decision("OK").reason("test " + type)
        .metadata(meta).build();
  }

  private static List<String> writeN(LedgerStream l, int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(l.write(entry("EVENT_" + (i % 3), "SES-0000000" + (i % 2), "WO-" + i)));
    }
    return ids;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void write_fillsIdTimeAndChain_andReadsBackAfterReopen(String kind) {
    StoreFixture f = fixture(kind);
    LedgerStream l = f.store().open(HOT);
    String id = l.write(entry("SESSION_START", "SES-1a2b3c4d", null));
    assertTrue(id.matches("LED-[0-9a-f]{16}"), id);
    LedgerEntry back = l.byId(id).orElseThrow();
    assertEquals("SESSION_START", back.eventType());
    assertEquals(ChainCodec.GENESIS, back.prevHash());
    assertEquals(64, back.hash().length());
    assertTrue(back.timestamp().endsWith("Z"), back.timestamp());
    String id2 = l.write(entry("SESSION_END", "SES-1a2b3c4d", null));
    assertEquals(back.hash(), l.byId(id2).orElseThrow().prevHash());
    LedgerStream again = f.reopen().open(HOT);
    assertEquals(List.of(id, id2), again.readAll().stream().map(LedgerEntry::entryId).toList());
    assertEquals(2, again.size());
    assertTrue(again.verify().ok());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void readers_filterByEventTypeSessionWorkOrderAndLastN_inChainOrder(String kind) {
    LedgerStream l = fixture(kind).store().open(HOT);
    List<String> ids = writeN(l, 12);
    assertEquals(4, l.byEventType("EVENT_0").size());
    assertEquals(6, l.bySession("SES-00000001").size());
    assertEquals(List.of(ids.get(7)), l.byWorkOrder("WO-7").stream().map(LedgerEntry::entryId).toList());
    assertEquals(ids.subList(9, 12), l.lastN(3).stream().map(LedgerEntry::entryId).toList());
    assertEquals(List.of(ids.get(9), ids.get(11)), l.query(new LedgerQuery(null, "SES-00000001", null, 2))
        .stream().map(LedgerEntry::entryId).toList());
    List<String> newest = new ArrayList<>();
    l.visitNewestFirst(LedgerQuery.eventType("EVENT_1"), e -> {
      newest.add(e.entryId());
      return newest.size() < 2;
    });
    assertEquals(List.of(ids.get(10), ids.get(7)), newest);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void idempotentWrite_returnsTheFirstIdAndWritesNothing(String kind) {
    StoreFixture f = fixture(kind);
    LedgerStream l = f.store().open(HOT);
    LedgerEntry e = entry("EXCHANGE", "SES-1", "WO-1").toBuilder().idempotencyKey("wf/act/1").build();
    String first = l.write(e);
    assertEquals(first, l.write(e.toBuilder().reason("a retry with other words").build()));
    assertEquals(1, l.size());
    assertEquals(first, l.idForKey("wf/act/1").orElseThrow());
    assertEquals(first, f.reopen().open(HOT).write(e), "a restarted process finds the key too");
    assertEquals(1, f.store().open(HOT).size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void streams_areSeparateChains_andListedHotFirst(String kind) {
    StoreFixture f = fixture(kind);
    assertFalse(f.store().exists(HOT));
    writeN(f.store().open(HO2), 2);
    writeN(f.store().open(HOT), 3);
    assertTrue(f.store().exists(HOT));
    assertEquals(List.of(HOT, HO2), f.store().streams());
    assertEquals(3, f.store().open(HOT).size());
    assertEquals(ChainCodec.GENESIS, f.store().open(HO2).readAll().get(0).prevHash());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void tamper_editedEntry_isNamedByVerify(String kind) {
    StoreFixture f = fixture(kind);
    writeN(f.store().open(HOT), 6);
    f.editReason(HOT, 4, "rewritten");
    VerifyResult r = f.reopen().open(HOT).verify();
    assertFalse(r.ok());
    assertEquals(4, r.firstBadLine(), r.reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void tamper_deletedEntry_isNamedByVerify(String kind) {
    StoreFixture f = fixture(kind);
    writeN(f.store().open(HOT), 6);
    f.deleteEntry(HOT, 3);
    VerifyResult r = f.reopen().open(HOT).verify();
    assertFalse(r.ok());
    assertEquals(3, r.firstBadLine(), r.reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void tamper_deletedTail_isCaughtByTheHeadRecord(String kind) {
    StoreFixture f = fixture(kind);
    writeN(f.store().open(HOT), 6);
    f.deleteTail(HOT, 2);
    VerifyResult r = f.reopen().open(HOT).verify();
    assertFalse(r.ok());
    assertEquals(5, r.firstBadLine(), r.reason());
    assertTrue(r.reason().contains("head"), r.reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void tamper_entryInsertedOutOfOrder_isNamedByVerify(String kind) {
    StoreFixture f = fixture(kind);
    LedgerStream l = f.store().open(HOT);
    writeN(l, 5);
    String hash3 = l.readAll().get(2).hash();
    f.insertAfter(HOT, 3, StoreFixture.forged(hash3));
    VerifyResult r = f.reopen().open(HOT).verify();
    assertFalse(r.ok());
    // The forged entry links to entry 3 and hashes correctly; the entry after it no longer links.
    assertEquals(5, r.firstBadLine(), r.reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void brokenChain_refusesAppendsUntilRepaired_thenVerifies(String kind) {
    StoreFixture f = fixture(kind);
    writeN(f.store().open(HOT), 6);
    f.editReason(HOT, 4, "rewritten");
    LedgerStream l = f.reopen().open(HOT);
    LedgerCorruptException refused = assertThrows(LedgerCorruptException.class, () -> l.write(entry("X", "S", null)));
    assertEquals(LedgerProblem.Kind.CORRUPT, LedgerProblem.of(refused).orElseThrow().kind());
    assertEquals(LedgerProblem.Kind.CORRUPT, l.appendProblem().orElseThrow().kind());
    assertTrue(l.repair().isPresent());
    assertTrue(l.verify().ok(), l.verify().reason());
    List<LedgerEntry> all = l.readAll();
    assertEquals(4, all.size(), "three intact entries and LEDGER_REPAIRED");
    assertEquals("LEDGER_REPAIRED", all.get(3).eventType());
    assertTrue(l.appendProblem().isEmpty());
    l.write(entry("AFTER_REPAIR", "S", null));
    assertTrue(l.verify().ok());
    assertTrue(l.repair().isEmpty(), "an intact chain needs no repair");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void eightThreads_appendConcurrently_intoOneValidChain(String kind) throws Exception {
    LedgerStream l = fixture(kind).store().open(HOT);
    int threads = 8;
    int each = 40;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<String>>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int tt = t;
      futures.add(pool.submit(() -> {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < each; i++) {
          // every write twice: the second is a retry and must return the first id
          LedgerEntry e = entry("EVENT", "SES-" + tt, null).toBuilder().idempotencyKey(tt + "/" + i).build();
          String id = l.write(e);
          assertEquals(id, l.write(e));
          ids.add(id);
        }
        return ids;
      }));
    }
    Set<String> all = new HashSet<>();
    for (Future<List<String>> fu : futures) {
      all.addAll(fu.get());
    }
    pool.shutdown();
    assertEquals(threads * each, all.size());
    assertEquals(threads * each, l.size());
    assertTrue(l.verify().ok(), l.verify().reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void keyedChain_withTheKeyVerifies_withoutItNeedsTheKey(String kind) {
    StoreFixture f = fixture(kind);
    ChainKey key = ChainKey.fromEnv(Map.of(ChainKey.VARIABLE, "ab".repeat(32))).orElseThrow();
    LedgerStore keyed = f.openStore(LedgerSettings.all(Durability.FSYNC_EACH).withKey(key));
    try {
      LedgerStream l = keyed.open(HOT);
      writeN(l, 3);
      assertTrue(l.verify().ok(), l.verify().reason());
      assertEquals(ChainKey.ALGORITHM, l.readAll().get(0).chain());
    } finally {
      keyed.close();
    }
    VerifyResult unkeyed = f.store().open(HOT).verify();
    assertEquals(VerifyResult.Kind.NEEDS_KEY, unkeyed.kind(), unkeyed.reason());
  }

  /** A stream written before the key was set is adopted by its first append with the key, head included. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void streamWrittenWithoutTheKey_isAdoptedByTheFirstKeyedAppend_headMacIncluded(String kind) {
    StoreFixture f = fixture(kind);
    writeN(f.store().open(HOT), 3);
    f.close();
    ChainKey key = ChainKey.fromEnv(Map.of(ChainKey.VARIABLE, "cd".repeat(32))).orElseThrow();
    LedgerStore keyed = f.openStore(LedgerSettings.all(Durability.FSYNC_EACH).withKey(key));
    try {
      LedgerStream l = keyed.open(HOT);
      assertEquals(VerifyResult.Kind.UNKEYED, l.verify().kind(), l.verify().reason());
      l.write(entry("AFTER_KEY", "S", null));
      assertEquals(5, l.size(), "three unkeyed entries, LEDGER_KEYED and the new one");
      assertTrue(l.verify().ok(), l.verify().reason());
      assertTrue(keyed.verify(HOT).ok());
    } finally {
      keyed.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void writeFromAnInterruptedThread_succeeds_andKeepsTheFlag(String kind) throws Exception {
    LedgerStream l = fixture(kind).store().open(HOT);
    l.write(entry("EXCHANGE", "SES-1", null));
    java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicBoolean stillInterrupted = new java.util.concurrent.atomic.AtomicBoolean();
    Thread t = new Thread(() -> {
      Thread.currentThread().interrupt();
      try {
        // a different stream too: its first append opens its head (the locking path)
        l.write(entry("EXCHANGE", "SES-1", null));
        f(kind).store().open(HO2).write(entry("WO_PLANNED", "SES-1", null));
      } catch (Throwable e) {
        failed.set(e);
      }
      stillInterrupted.set(Thread.currentThread().isInterrupted());
    });
    t.start();
    t.join();
    assertEquals(null, failed.get(), "the interrupted writer's entries");
    assertTrue(stillInterrupted.get(), "the interrupt is kept for the caller");
    assertEquals(2, l.size());
  }

  /**
   * Issue 20 §1: a model reply with a NUL, a NUL in a session id, and NULs in a model's query filter.
   * PostgreSQL's text cannot hold a NUL and its jsonb cannot read one even escaped: stored as U+FFFD in
   * both stores (the chain hashes what is stored), readable with {@code body::jsonb}, and a filter with
   * a NUL matches what it became instead of failing in the database.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void nulInARepliesTextAndInAFilter_isStoredAsReplacement_readable_andNeverADatabaseError(String kind) {
    StoreFixture f = fixture(kind);
    LedgerStream l = f.store().open(HOT);
    String id = l.write(LedgerEntry.builder("EXCHANGE").reason("reply\u0000").idempotencyKey("k\u0000")
        .metadata(Json.object().put("session_id", "SES-\u0000").put("response", "a\u0000b\ud800c")).build());
    LedgerEntry back = l.byId(id).orElseThrow();
    assertEquals("a\ufffdb\ufffdc", back.metaText("response"));
    assertEquals("SES-\ufffd", back.sessionId());
    assertTrue(f.reopen().open(HOT).verify().ok());
    LedgerStream again = f.store().open(HOT);
    assertEquals(List.of(id), again.query(LedgerQuery.session("SES-\u0000")).stream().map(LedgerEntry::entryId)
        .toList(), "the filter is cleaned as the entry was");
    assertEquals(id, again.idForKey("k\u0000").orElseThrow());
    assertTrue(again.byId("LED-\u0000").isEmpty());
    assertTrue(again.query(new LedgerQuery("EX\u0000", null, "WO-\u0000", 3)).isEmpty());
    if (f instanceof StoreFixture.Postgres pg) {
      TestPostgres.sql(pg.database(), "SELECT (body::jsonb) -> 'metadata' ->> 'response' FROM ledger_entry");
    }
  }

  private StoreFixture f(String kind) {
    return opened.stream().filter(x -> x.name().equals(kind)).findFirst().orElseThrow();
  }

  /** The same entries (ids and times fixed) hash the same in both stores, byte for byte. */
  @Test
  void sameEntries_hashTheSameInBothStores() {
    StoreFixture jsonl = fixture("jsonl");
    StoreFixture pg = fixture("postgresql");
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      LedgerEntry e = entry("EVENT_" + i, "SES-0000000" + i, "WO-" + i).toBuilder().entryId("LED-000000000000000" + i)
          .timestamp("2026-11-23T10:00:0" + i + ".123456Z").idempotencyKey("k" + i)
          .metadata(Json.object().put("session_id", "SES-x").put("cost", 0.25 * i).put("text", "é ✓ \"q\""))
          .build();
      jsonl.store().open(HOT).write(e);
      pg.store().open(HOT).write(e);
    }
    jsonl.store().open(HOT).readAll().forEach(e -> a.add(e.toString()));
    pg.store().open(HOT).readAll().forEach(e -> b.add(e.toString()));
    assertEquals(a, b);
  }
}
