package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.Durability;
import cp.ledger.Ledger;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerOptions;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import cp.observability.Telemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retry on another worker: attempt 1 of an activity runs on worker A, which is cut off from the
 * Temporal service but still talks to the provider; the service starts attempt 2 on worker B. Both
 * gateways (each with its own counters object, over the one HOT ledger and the one counters store)
 * send the same round and the provider bills both. Every billed answer is recorded once and counted
 * once (ledger and tenant counters), the workflow's answer is the first one recorded, and no
 * attempt's release drops the other's reservation. Before: the second paid answer was neither
 * recorded nor counted (the EXCHANGE is idempotent per activity and the attempts shared one
 * reservation), and attempt 1's release dropped attempt 2's reservation while it was in flight.
 */
class GatewayAttemptsOnTwoWorkersTest {
  @StartStop final MockWebServer server = new MockWebServer();
  @TempDir Path tmp;
  private Path home;
  private Ledger hot;
  private JsonlTenantCounters countersA;
  private JsonlTenantCounters countersB;
  private Gateway a;
  private Gateway b;

  /** Workers A and B: their own gateways and counters objects, over one HOT ledger and one counters store. */
  @BeforeEach
  void workers() throws Exception {
    home = tmp.resolve("home");
    Files.createDirectories(home);
    hot = Ledger.open(home.resolve("HOT/ledger/governance.jsonl"), LedgerOptions.of(Durability.NONE));
    countersA = new JsonlTenantCounters(home);
    countersB = new JsonlTenantCounters(home);
    a = worker("a", countersA);
    b = worker("b", countersB);
  }

  @AfterEach
  void stop() {
    countersA.close();
    countersB.close();
    hot.close();
  }

  /** Attempt 1, sent by worker A; returns once the provider has it. */
  private CompletableFuture<PromptResponse> attempt1OnWorkerA(Provider provider) throws InterruptedException {
    CompletableFuture<PromptResponse> first = CompletableFuture.supplyAsync(() -> a.route(attempt(1)));
    assertTrue(provider.firstArrived.await(10, TimeUnit.SECONDS), "attempt 1 reached the provider");
    return first;
  }

  static final String MODEL = "gpt-test";
  static final double DAILY_CAP = 1.0;

  /** The provider: the first request waits until released, then answers as {@code first}; the others at once. */
  static final class Provider extends Dispatcher {
    final AtomicInteger calls = new AtomicInteger();
    final CountDownLatch firstArrived = new CountDownLatch(1);
    final CountDownLatch releaseFirst = new CountDownLatch(1);
    final MockResponse first;
    final MockResponse others;

    Provider(MockResponse first, MockResponse others) {
      this.first = first;
      this.others = others;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
      if (calls.incrementAndGet() == 1) {
        firstArrived.countDown();
        releaseFirst.await(20, TimeUnit.SECONDS);
        return first;
      }
      return others;
    }
  }

  static MockResponse answer(String text, int promptTokens, int completionTokens) {
    return ProviderFixtures.json(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1741569952,"
        + "\"model\":\"" + MODEL + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\""
        + text + "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":" + promptTokens
        + ",\"completion_tokens\":" + completionTokens + ",\"total_tokens\":" + (promptTokens + completionTokens)
        + "}}");
  }

  /** A worker's gateway: its own provider client, spool and counters object; the shared ledger and counters store. */
  private Gateway worker(String name, TenantCounters counters) throws Exception {
    LlmProvider p = new cp.gateway.openai.OpenAiProvider(ProviderFixtures.settings(ProviderFixtures.base(server),
        Secret.of(ProviderFixtures.TEST_KEY), MODEL), Clock.systemUTC());
    Path caps = home.resolve("tenants.json");
    Files.writeString(caps, "{\"tenants\": {\"acme\": {\"daily_usd\": " + DAILY_CAP + "}}}");
    TenantGuard guard = new TenantGuard(TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, caps.toString())), counters,
        Duration.ofMillis(300), Duration.ofMinutes(10), Clock.systemUTC());
    PriceTable prices = PriceTable.fromEnv(Map.of(PriceTable.PRICE_INPUT, "10", PriceTable.PRICE_OUTPUT, "50"),
        p.id());
    return new Gateway(List.of(p), hot, new GatewayConfig(p.id(), prices), (schema, text) -> List.of(),
        id -> new CircuitBreaker(id, new CircuitBreakerConfig(1000, Duration.ofSeconds(1))), Clock.systemUTC(),
        ExchangeSpool.in(tmp.resolve(name + "/spool"), Clock.systemUTC()), Telemetry.NOOP, guard);
  }

  private static PromptRequest attempt(int attempt) {
    return TenantSpendConcurrencyTest.call("acme", 1).toBuilder().model(MODEL).workflowId("SES-00000001/turn-0001")
        .runId("run-1").activityId("act-7").attempt(attempt).build();
  }

  private static List<LedgerEntry> exchanges(Ledger hot) {
    return hot.readAll().stream().filter(e -> e.eventType().equals("EXCHANGE")).toList();
  }

  @Test
  void bothAttemptsPaid_onTwoWorkers_bothAnswersRecordedAndCountedOnce_theWorkflowGetsTheFirstRecorded()
      throws Exception {
    Provider provider = new Provider(answer("answer of attempt 1", 1000, 150), answer("answer of attempt 2", 1000, 200));
    server.setDispatcher(provider);
    CompletableFuture<PromptResponse> first = attempt1OnWorkerA(provider);
    PromptResponse r2 = b.route(attempt(2)); // worker B's attempt is answered while attempt 1 still waits
    provider.releaseFirst.countDown();
    PromptResponse r1 = first.get(20, TimeUnit.SECONDS);

    assertEquals(2, provider.calls.get(), "both attempts reached the provider and were billed");
    assertEquals(RouteOutcome.SUCCESS, r2.outcome(), r2::toString);
    assertEquals("answer of attempt 2", r2.text());
    assertFalse(r2.replayed());
    // Attempt 1 answers with the answer recorded first (attempt 2's), as a retry of it would.
    assertEquals(RouteOutcome.SUCCESS, r1.outcome(), r1::toString);
    assertEquals("answer of attempt 2", r1.text(), "one answer for the round: the first recorded");
    assertEquals(r2.exchangeEntryId(), r1.exchangeEntryId());

    List<LedgerEntry> exchanges = exchanges(hot);
    assertEquals(2, exchanges.size(), "both paid answers are recorded: " + exchanges);
    LedgerEntry answer = exchanges.get(0);
    LedgerEntry duplicate = exchanges.get(1);
    assertEquals("success", answer.metaText("outcome"));
    assertEquals(2, (int) answer.metaNumber("attempt"));
    assertEquals(DuplicateAnswers.OUTCOME, duplicate.metaText("outcome"));
    assertEquals(1, (int) duplicate.metaNumber("attempt"));
    assertEquals("answer of attempt 1", duplicate.metaText("response"));
    assertEquals(answer.entryId(), duplicate.meta(DuplicateAnswers.FIELD).path("entry_id").asText());
    assertEquals(2, duplicate.meta(DuplicateAnswers.FIELD).path("attempt").asInt());

    double cost2 = answer.metaNumber("cost_usd");
    double cost1 = duplicate.metaNumber("cost_usd");
    assertEquals((1000 * 10 + 200 * 50) / 1e6, cost2, 1e-12);
    assertEquals((1000 * 10 + 150 * 50) / 1e6, cost1, 1e-12);
    double ledgerSpend = SpendReport.of(hot.readAll(), SpendReport.By.TENANT, Optional.of("acme"), Optional.empty())
        .totalUsd();
    assertEquals(cost1 + cost2, ledgerSpend, 1e-12, "the ledger's spend counts both billed answers");
    TenantCounters.Totals t = new JsonlTenantCounters(home).totals("acme", Instant.now());
    assertEquals(cost1 + cost2, t.daySpent(), 1e-12, "the tenant's counters count both billed answers");
    assertEquals(0, t.dayReserved(), 1e-12, "nothing left held");
    // The attempt that delivered the duplicate carries its tokens and cost, as a torn attempt's are.
    assertEquals(cost1 + cost2, r1.cost(), 1e-12);
    assertEquals(2000 + 350, r1.inputTokens() + r1.outputTokens());
    assertEquals(cost2, r2.cost(), 1e-12);
  }

  @Test
  void attempt1FailsOnWorkerA_whileAttempt2IsInFlightOnWorkerB_attempt2sReservationStaysHeld() throws Exception {
    Provider provider = new Provider(ProviderFixtures.json(500, "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}"),
        answer("answer of attempt 2", 1000, 200));
    CountDownLatch secondArrived = new CountDownLatch(1);
    CountDownLatch releaseSecond = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        if (provider.calls.get() >= 1) {
          provider.calls.incrementAndGet();
          secondArrived.countDown();
          releaseSecond.await(20, TimeUnit.SECONDS);
          return provider.others;
        }
        return provider.dispatch(request);
      }
    });
    CompletableFuture<PromptResponse> first = attempt1OnWorkerA(provider);
    CompletableFuture<PromptResponse> second = CompletableFuture.supplyAsync(() -> b.route(attempt(2)));
    assertTrue(secondArrived.await(10, TimeUnit.SECONDS), "attempt 2 reached the provider");
    provider.releaseFirst.countDown();
    java.util.concurrent.ExecutionException failed = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> first.get(20, TimeUnit.SECONDS));
    assertTrue(failed.getCause() instanceof GatewayException, failed::toString);

    TenantCounters.Totals during = new JsonlTenantCounters(home).totals("acme", Instant.now());
    assertTrue(during.dayReserved() > 0,
        "attempt 2 is still in flight: its reservation stays held after attempt 1 released its own: " + during);
    releaseSecond.countDown();
    PromptResponse r2 = second.get(20, TimeUnit.SECONDS);
    assertEquals("answer of attempt 2", r2.text());
    TenantCounters.Totals after = new JsonlTenantCounters(home).totals("acme", Instant.now());
    assertEquals(r2.cost(), after.daySpent(), 1e-12, "attempt 2's answer is counted");
    assertEquals(0, after.dayReserved(), 1e-12);
  }
}
