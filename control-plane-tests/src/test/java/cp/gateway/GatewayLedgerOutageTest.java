package cp.gateway;

import static cp.gateway.GatewayHarness.inActivity;
import static cp.gateway.GatewayHarness.reply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerProblem;
import cp.ledger.LedgerQuery;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerUnreachableException;
import cp.ledger.VerifyResult;
import cp.model.FailureCode;
import cp.model.PromptResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1 at the gateway: a HOT ledger whose database cannot be reached. Nothing is sent
 * while it is down; an answer the provider gave while it went away is kept in the spool, the
 * retried attempt records it without calling the provider again, and an answer left behind by an
 * attempt nobody retried is recorded by the next round trip once the ledger is back.
 */
class GatewayLedgerOutageTest {
  @TempDir Path dir;
  private GatewayHarness h;
  private FlakyLedger hot;
  private Gateway gateway;

  @BeforeEach
  void start() {
    h = new GatewayHarness(dir);
    hot = new FlakyLedger(h.ledger);
    gateway = new Gateway(List.of(h.provider), hot, new GatewayConfig(GatewayHarness.PROVIDER,
        Map.of(GatewayHarness.PROVIDER, GatewayHarness.PRICE)), GatewayHarness.REQUIRED_FIELDS,
        id -> new CircuitBreaker(id, new CircuitBreakerConfig(GatewayHarness.THRESHOLD, GatewayHarness.COOLDOWN),
            System::nanoTime), h.clock, h.spool);
  }

  @AfterEach
  void stop() {
    h.verifyChainAndClose();
  }

  @Test
  void databaseDownBeforeTheCall_nothingIsSent_ledgerUnavailableRetryable() {
    hot.down = true;

    GatewayException e = assertThrows(GatewayException.class, () -> gateway.route(inActivity("act-1", 1).build()));

    assertEquals(FailureCode.LEDGER_UNAVAILABLE, e.code());
    assertTrue(e.retryable());
    assertTrue(e.getMessage().contains("ledger database is down or unreachable"), e.getMessage());
    assertEquals(0, h.provider.calls(), "nothing is paid for while the record cannot be written");
  }

  @Test
  void databaseGoneWhileTheProviderAnswers_theAnswerIsKept_andTheRetryRecordsItWithoutPayingAgain() {
    h.provider.answers(reply("paid once")).duringEachCall(() -> hot.down = true);

    GatewayException first = assertThrows(GatewayException.class,
        () -> gateway.route(inActivity("act-1", 1).build()));
    assertEquals(FailureCode.LEDGER_UNAVAILABLE, first.code());
    assertEquals(1, h.spool.pending().size(), "the paid answer is kept on disk");

    GatewayException stillDown = assertThrows(GatewayException.class,
        () -> gateway.route(inActivity("act-1", 2).build()));
    assertEquals(FailureCode.LEDGER_UNAVAILABLE, stillDown.code());

    hot.down = false;
    PromptResponse r = gateway.route(inActivity("act-1", 3).build());

    assertEquals("paid once", r.text());
    assertTrue(r.replayed(), "answered from the kept answer");
    assertEquals(1, h.provider.calls(), "the provider was paid once for three attempts");
    List<LedgerEntry> exchanges = h.exchanges();
    assertEquals(1, exchanges.size());
    assertEquals("success", exchanges.get(0).metaText("outcome"));
    assertTrue(exchanges.get(0).metaText(ExchangeSpool.KEPT_BECAUSE).contains("ledger database"),
        "the EXCHANGE says it was recorded late and why: " + exchanges.get(0));
    assertTrue(exchanges.get(0).metaText(ExchangeSpool.KEPT_AT) != null);
    assertEquals(List.of(), h.spool.pending(), "nothing is left in the spool");
  }

  @Test
  void anAnswerNobodyRetried_isRecordedByTheNextRoundTripOnceTheDatabaseIsBack() {
    h.provider.answers(reply("abandoned")).duringEachCall(() -> hot.down = true);
    assertThrows(GatewayException.class, () -> gateway.route(inActivity("act-1", 1).build()));

    hot.down = false;
    h.provider.answers(reply("next call")).duringEachCall(() -> { });
    PromptResponse next = gateway.route(inActivity("act-2", 1).build());

    assertEquals("next call", next.text());
    List<String> recorded = h.exchanges().stream().map(e -> e.metaText("response")).toList();
    assertEquals(List.of("abandoned", "next call"), recorded, "both paid answers are on record, each once");
    assertEquals(List.of(), h.spool.pending());
  }

  /**
   * Worker A's attempt 1 is answered while the database is gone (its answer kept in A's spool);
   * attempt 2 on worker B (its own spool, the database back) is answered and recorded. Both were
   * billed: when A records its kept answer, it becomes a duplicate_answer EXCHANGE of attempt 2's,
   * counted, and A answers with attempt 2's answer. Before: the kept answer was dropped as already
   * recorded, its cost counted nowhere.
   */
  @Test
  void keptAnswer_recordedAfterAnotherWorkersAttemptAnswered_isRecordedAsItsDuplicate() {
    PromptResponse b = keptByWorkerA_thenAnsweredOnWorkerB();
    assertEquals("answered on B", b.text());

    PromptResponse a = gateway.route(inActivity("act-1", 3).build());

    assertEquals(2, h.provider.calls(), "both attempts were sent and billed; attempt 3 asks nobody");
    assertEquals("answered on B", a.text(), "the round's answer is the one recorded first");
    assertEquals(b.exchangeEntryId(), a.exchangeEntryId());
    List<LedgerEntry> exchanges = h.exchanges();
    assertEquals(2, exchanges.size(), "both paid answers are on record: " + exchanges);
    assertEquals("success", exchanges.get(0).metaText("outcome"));
    LedgerEntry duplicate = exchanges.get(1);
    assertEquals(DuplicateAnswers.OUTCOME, duplicate.metaText("outcome"));
    assertEquals("kept by A", duplicate.metaText("response"));
    assertEquals(1, (int) duplicate.metaNumber("attempt"));
    assertEquals(exchanges.get(0).entryId(), duplicate.meta(DuplicateAnswers.FIELD).path("entry_id").asText());
    double each = exchanges.get(0).metaNumber("cost_usd");
    assertTrue(each > 0);
    assertEquals(each, duplicate.metaNumber("cost_usd"), 1e-12);
    assertEquals(2 * each, a.cost(), 1e-12, "attempt 3 carries the cost of both answers");
    assertEquals(List.of(), h.spool.pending());

    // Asking again changes nothing: one duplicate, answered from the ledger.
    PromptResponse again = gateway.route(inActivity("act-1", 4).build());
    assertEquals("answered on B", again.text());
    assertEquals(2, h.exchanges().size());
  }

  /** The same, when the kept answer is written by worker A's next round trip of another activity. */
  @Test
  void keptAnswer_writtenByTheNextRoundTrip_afterAnotherWorkersAttemptAnswered_isRecordedAsItsDuplicate() {
    keptByWorkerA_thenAnsweredOnWorkerB();

    h.provider.answers(reply("next call")).duringEachCall(() -> { });
    gateway.route(inActivity("act-2", 1).build());

    List<String> outcomes = h.exchanges().stream().map(e -> e.metaText("response") + ":" + e.metaText("outcome"))
        .toList();
    assertEquals(List.of("answered on B:success", "kept by A:" + DuplicateAnswers.OUTCOME, "next call:success"),
        outcomes, "every paid answer is on record, each once");
    assertEquals(List.of(), h.spool.pending());
  }

  /**
   * Attempt 1 of act-1 answered on this gateway (worker A) while the database is gone, its answer
   * kept in A's spool; then attempt 2 answered and recorded on worker B (same ledger, its own spool).
   */
  private PromptResponse keptByWorkerA_thenAnsweredOnWorkerB() {
    Gateway workerB = new Gateway(List.of(h.provider), h.ledger, new GatewayConfig(GatewayHarness.PROVIDER,
        Map.of(GatewayHarness.PROVIDER, GatewayHarness.PRICE)), GatewayHarness.REQUIRED_FIELDS,
        id -> new CircuitBreaker(id, new CircuitBreakerConfig(GatewayHarness.THRESHOLD, GatewayHarness.COOLDOWN),
            System::nanoTime), h.clock, ExchangeSpool.in(dir.resolve("worker-b/HOT/ledger"), h.clock));
    h.provider.answers(reply("kept by A")).duringEachCall(() -> hot.down = true);
    assertThrows(GatewayException.class, () -> gateway.route(inActivity("act-1", 1).build()));
    hot.down = false;
    h.provider.answers(reply("answered on B")).duringEachCall(() -> { });
    return workerB.route(inActivity("act-1", 2).build());
  }

  /** The real JSONL ledger behind a switch that makes every call fail as an unreachable database would. */
  static final class FlakyLedger implements LedgerStream {
    private final LedgerStream real;
    volatile boolean down;

    FlakyLedger(LedgerStream real) {
      this.real = real;
    }

    private void reach() {
      if (down) {
        throw new LedgerUnreachableException("cannot reach stream hot in the ledger database"
            + " jdbc:postgresql://localhost:1/ledger: Connection refused", null);
      }
    }

    @Override
    public String location() {
      return real.location();
    }

    @Override
    public Appended append(LedgerEntry entry) {
      reach();
      return real.append(entry);
    }

    @Override
    public List<LedgerEntry> query(LedgerQuery q) {
      reach();
      return real.query(q);
    }

    @Override
    public void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
      reach();
      real.visitNewestFirst(q, visitor);
    }

    @Override
    public Optional<LedgerEntry> byId(String entryId) {
      reach();
      return real.byId(entryId);
    }

    @Override
    public Optional<String> idForKey(String idempotencyKey) {
      reach();
      return real.idForKey(idempotencyKey);
    }

    @Override
    public long size() {
      return real.size();
    }

    @Override
    public VerifyResult verify() {
      return real.verify();
    }

    @Override
    public Optional<VerifyResult> brokenChain() {
      return real.brokenChain();
    }

    @Override
    public Optional<LedgerProblem> appendProblem() {
      reach();
      return real.appendProblem();
    }

    @Override
    public Optional<String> repair() {
      return real.repair();
    }

    @Override
    public void flush() {
      real.flush();
    }

    @Override
    public void close() {
      real.close();
    }
  }
}
