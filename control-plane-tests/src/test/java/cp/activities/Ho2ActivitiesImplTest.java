package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Catalog;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.Ho2Event;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import cp.model.Json;
import cp.worker.TemporalOptions;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.testing.TestActivityEnvironment;
import io.temporal.testing.TestEnvironmentOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HO2m writes through the real activity (seed 001 Q8: the four event types, trace_hash, idempotency). */
class Ho2ActivitiesImplTest {
  static final String SID = TraceHashTest.SID;

  @TempDir Path home;
  Ledgers ledgers;
  TestActivityEnvironment env;
  Ho2Activities ho2;
  RunTwice worker;

  @BeforeEach
  void setUp() {
    ledgers = Ledgers.open(home);
    env = TestActivityEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(TemporalOptions.dataConverter())
            .build())
        .build());
    worker = new RunTwice(
        new Ho2ActivitiesImpl(ledgers, new AttentionAssembler(Catalog.loadDefault(), ledgers, Clock.systemUTC()), ActivityContextSource.TEMPORAL,
            cp.observability.Telemetry.NOOP));
    env.registerActivitiesImplementations(worker);
    ho2 = env.newActivityStub(Ho2Activities.class, ActivityOptions.newBuilder()
        .setStartToCloseTimeout(Duration.ofSeconds(30)).build());
  }

  @AfterEach
  void tearDown() {
    env.close();
    ledgers.close();
  }

  /**
   * The real activity; when {@code twice} is set it runs the implementation a second time in the
   * same activity execution, which is what a retry after a lost completion does: same workflow,
   * run and activity id. (The test environment does not retry activities itself.)
   */
  static final class RunTwice implements Ho2Activities {
    final Ho2Activities real;
    volatile boolean twice;
    final List<Object> results = new java.util.concurrent.CopyOnWriteArrayList<>();

    RunTwice(Ho2Activities real) {
      this.real = real;
    }

    private <T> T run(java.util.function.Supplier<T> call) {
      T result = call.get();
      results.add(result);
      if (twice) {
        result = call.get();
        results.add(result);
      }
      return result;
    }

    @Override
    public Ho2RecordResult record(Ho2Record record) {
      return run(() -> real.record(record));
    }

    @Override
    public AttentionResult attend(AttentionRequest request) {
      return run(() -> real.attend(request));
    }
  }

  static Ho2Event event(String type, String wo, boolean withTraceHash) {
    return new Ho2Event(type, type + "/" + (wo == null ? "turn" : wo), wo, "OK", type + " reason",
        Json.object().put("session_id", SID).put("agent_class", "ADMIN").put("turn", 1).put("tier", "ho2"),
        withTraceHash);
  }

  Ho2Record chainRecord() {
    return new Ho2Record("ADMIN", SID, 1, List.of(event("WO_PLANNED", TraceHashTest.W1, false),
        event("WO_DISPATCHED", TraceHashTest.W1, false), event("WO_QUALITY_GATE", TraceHashTest.W2, true),
        event("WO_CHAIN_COMPLETE", null, true)), TraceHashTest.CHAIN);
  }

  // Seed 001 Q8: trace_hash is stored on WO_QUALITY_GATE and WO_CHAIN_COMPLETE, also as
  // metadata.context_fingerprint.context_hash, and nowhere else.
  @Test
  void record_attachesTheTraceHash_onlyToEventsThatAskForIt() throws Exception {
    TraceHashTest.chain(ledgers.ho1(), 30);
    String expected = TraceHashTest.recompute(home, SID, TraceHashTest.CHAIN);
    Ho2RecordResult r = ho2.record(chainRecord());
    assertEquals(expected, r.traceHash());
    List<LedgerEntry> written = ledgers.ho2("ADMIN").readAll();
    assertEquals(List.of("WO_PLANNED", "WO_DISPATCHED", "WO_QUALITY_GATE", "WO_CHAIN_COMPLETE"),
        written.stream().map(LedgerEntry::eventType).toList());
    assertEquals(r.entryIds(), written.stream().map(LedgerEntry::entryId).toList());
    for (LedgerEntry e : written.subList(0, 2)) {
      assertNull(e.meta("trace_hash"), e.eventType());
      assertNull(e.meta("context_fingerprint"), e.eventType());
    }
    for (LedgerEntry e : written.subList(2, 4)) {
      assertEquals(expected, e.metaText("trace_hash"), e.eventType());
      assertEquals(expected, e.meta("context_fingerprint").get("context_hash").asText(), e.eventType());
    }
    assertEquals(TraceHashTest.W1, written.get(0).submissionId());
    assertEquals(SID, written.get(3).submissionId(), "a chain event without a work order is filed under the session");
  }

  // Seed 001 Q8: no trace hash is computed for a batch that does not ask for one.
  @Test
  void record_withoutTraceHashEvents_returnsNoHash() {
    Ho2RecordResult r = ho2.record(new Ho2Record("ADMIN", SID, 1,
        List.of(event("WO_PLANNED", TraceHashTest.W1, false)), TraceHashTest.CHAIN));
    assertNull(r.traceHash());
    assertFalse(ledgers.ho2("ADMIN").readAll().get(0).metadata().has("trace_hash"));
  }

  // Seed 001 Q8 + DESIGN §2: a record activity retried after its writes writes every event once.
  @Test
  void record_retriedAfterItsWrites_writesEachEventOnce() {
    TraceHashTest.chain(ledgers.ho1(), 30);
    worker.twice = true;
    Ho2RecordResult r = ho2.record(chainRecord());
    assertEquals(4, ledgers.ho2("ADMIN").size());
    assertEquals(worker.results.get(0), r, "the retry returns the ids the first attempt wrote");
    assertEquals(ledgers.ho2("ADMIN").readAll().stream().map(LedgerEntry::entryId).toList(), r.entryIds());
  }

  // Seed 001 Q6 (isolated state): each agent class writes its own HO2 ledger.
  @Test
  void record_writesToTheLedgerOfTheRecordsAgentClass() {
    ho2.record(new Ho2Record("RESIDENT", SID, 1, List.of(event("WO_PLANNED", TraceHashTest.W1, false)), List.of()));
    assertEquals(1, ledgers.ho2("RESIDENT").size());
    assertTrue(ledgers.existing(cp.ledger.Tier.HO2, "ADMIN").isEmpty(), "nothing in ADMIN's HO2m");
  }

  // Seed 001 Q4 + DESIGN §2: attention retried after its write records one ATTENTION_ASSEMBLED
  // and returns the recorded context's ref and hash.
  @Test
  void attend_retriedAfterItsWrite_writesOneAttentionAssembled() {
    ledgers.ho2("ADMIN").write(LedgerEntry.builder("WO_PLANNED").reason("an earlier event")
        .metadata(Json.object().put("session_id", SID)).build());
    worker.twice = true;
    AttentionResult r = ho2.attend(new AttentionRequest(SID, "ADMIN", "ATT-ADMIN-001", 1, "hello"));
    assertEquals(1, ledgers.ho2("ADMIN").byEventType("ATTENTION_ASSEMBLED").size());
    assertEquals(worker.results.get(0), r);
    LedgerEntry e = ledgers.ho2("ADMIN").byId(r.contextRef()).orElseThrow();
    assertEquals(Json.sha256(e.metaText("context")), r.contextHash());
  }
}
