package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.Durability;
import cp.ledger.Ledger;
import cp.ledger.LedgerDatabase;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerOptions;
import cp.ledger.TestPostgres;
import cp.model.ContentBlock;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import cp.observability.Telemetry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 "Done when": 8 sessions of one tenant call at once, through two workers (two gateways,
 * each with its own counters object on the shared store), against a daily cap: what the provider
 * billed stays within the cap (the provider counts the prompt exactly as estimated here, so the
 * README's bound is 0); another tenant is unaffected; a restart keeps the counters. Once with the
 * JSONL store (two counters objects on one CP_HOME, as two worker processes of one host), once
 * with PostgreSQL (two counters on one database, each worker with its own CP_HOME and HOT ledger).
 */
class TenantSpendConcurrencyTest {
  static final double DAILY_CAP = 1.0;
  static final String MODEL = "m-1";
  /** $10/Mtok in, $50/Mtok out: a call of about 1,000 prompt tokens and 200 output costs about $0.02. */
  static final PriceTable PRICES = PriceTable.fromEnv(Map.of(PriceTable.PRICE_INPUT, "10", PriceTable.PRICE_OUTPUT,
      "50"), "fake");
  static final String PROMPT = "x".repeat(4_000);
  @TempDir Path tmp;

  /** A thread-safe provider billing exactly the estimated prompt and 200 output tokens. */
  static final class Billing implements LlmProvider {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String id() {
      return "fake";
    }

    @Override
    public ProviderReply send(PromptRequest r) {
      calls.incrementAndGet();
      return new ProviderReply(List.of(ContentBlock.text("ok")), TokenEstimate.ofPrompt(r), 200, MODEL, "stop");
    }
  }

  /** A gateway over {@code counters} with acme's daily cap (for {@link TenantCountersRebuildTest}). */
  static Gateway gatewayFor(Ledger hot, Path home, LlmProvider p, TenantCounters counters) {
    return gateway(hot, home, p, counters);
  }

  private static Gateway gateway(Ledger hot, Path home, LlmProvider p, TenantCounters counters) {
    Path caps = home.resolve("tenants.json");
    try {
      java.nio.file.Files.createDirectories(home);
      java.nio.file.Files.writeString(caps, "{\"tenants\": {\"acme\": {\"daily_usd\": " + DAILY_CAP + "}}}");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    TenantGuard guard = new TenantGuard(TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, caps.toString())), counters,
        Duration.ofMillis(300), Duration.ofMinutes(10), Clock.systemUTC());
    return new Gateway(List.of(p), hot, new GatewayConfig(p.id(), PRICES), (schema, text) -> List.of(),
        id -> new CircuitBreaker(id, new CircuitBreakerConfig(1000, Duration.ofSeconds(1))), Clock.systemUTC(),
        ExchangeSpool.in(home.resolve("HOT/ledger"), Clock.systemUTC()), Telemetry.NOOP, guard);
  }

  private static Ledger ledger(Path home) {
    return Ledger.open(home.resolve("HOT/ledger/governance.jsonl"), LedgerOptions.of(Durability.NONE));
  }

  static PromptRequest call(String tenant, int session) {
    return PromptRequest.builder().contractId("PRC-SYNTHESIZE-001").agentId("admin-001").agentClass("ADMIN")
        .sessionId(String.format("SES-%08x", session)).messages(List.of(Message.user(PROMPT))).maxTokens(1000)
        .model(MODEL).tenant(tenant).build();
  }

  /** 8 sessions, 4 on each gateway, each calling until its tenant's cap refuses it; returns the refusals. */
  private static List<PromptResponse> eightSessions(Gateway a, Gateway b) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<PromptResponse>> out = new ArrayList<>();
      for (int s = 0; s < 8; s++) {
        Gateway g = s % 2 == 0 ? a : b;
        int session = s;
        out.add(pool.submit(() -> {
          while (true) {
            PromptResponse r = g.route(call("acme", session));
            if (r.outcome() != RouteOutcome.SUCCESS) {
              return r;
            }
          }
        }));
      }
      List<PromptResponse> refusals = new ArrayList<>();
      for (Future<PromptResponse> f : out) {
        refusals.add(f.get());
      }
      return refusals;
    } finally {
      pool.shutdownNow();
    }
  }

  private static double billed(String tenant, Ledger... hot) {
    double sum = 0;
    for (Ledger l : hot) {
      for (LedgerEntry e : l.readAll()) {
        if (e.eventType().equals("EXCHANGE") && tenant.equals(e.metaText("tenant"))) {
          sum += e.metaNumber("cost_usd");
        }
      }
    }
    return sum;
  }

  private void scenario(Supplier<TenantCounters> store, Path homeA, Path homeB) throws Exception {
    Billing provider = new Billing();
    Ledger hotA = ledger(homeA);
    Ledger hotB = homeA.equals(homeB) ? hotA : ledger(homeB);
    try (TenantCounters ca = store.get(); TenantCounters cb = store.get()) {
      Gateway a = gateway(hotA, homeA, provider, ca);
      Gateway b = gateway(hotB, homeB, provider, cb);
      List<PromptResponse> refusals = eightSessions(a, b);
      double billed = billed("acme", homeA.equals(homeB) ? new Ledger[] {hotA} : new Ledger[] {hotA, hotB});
      assertTrue(billed <= DAILY_CAP + 1e-9, "billed $" + billed + " over the daily cap of $" + DAILY_CAP);
      assertTrue(billed > DAILY_CAP - 0.1, "the cap was used, not refused early: $" + billed);
      for (PromptResponse r : refusals) {
        assertEquals(Gateway.BUDGET_EXHAUSTED, r.errorCode(), r.errorMessage());
        assertTrue(r.errorMessage().startsWith("USD budget (tenant_day)") && r.errorMessage().contains("resets at"),
            r.errorMessage());
      }
      assertEquals(RouteOutcome.SUCCESS, a.route(call("beta", 99)).outcome(), "another tenant is unaffected");
      assertEquals(billed, ca.totals("acme", Instant.now()).daySpent(), 1e-9, "the counters hold what was billed");
    }
    // A restart: new counters objects on the same store see the spend and keep refusing.
    try (TenantCounters again = store.get()) {
      Gateway a = gateway(hotA, homeA, provider, again);
      int before = provider.calls.get();
      assertEquals(Gateway.BUDGET_EXHAUSTED, a.route(call("acme", 100)).errorCode());
      assertEquals(before, provider.calls.get(), "nothing was sent after the restart");
    } finally {
      hotA.close();
      if (hotB != hotA) {
        hotB.close();
      }
    }
  }

  @Test
  void jsonl_eightSessionsOfOneTenant_twoWorkersOfOneHost_stayWithinTheDailyCap_andARestartKeepsIt() throws Exception {
    Path home = tmp.resolve("home");
    scenario(() -> new JsonlTenantCounters(home), home, home);
  }

  @Test
  void postgres_eightSessionsOfOneTenant_twoWorkersWithTheirOwnHomes_shareTheCounters() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    scenario(() -> PostgresTenantCounters.open(db), tmp.resolve("host-a"), tmp.resolve("host-b"));
  }

  @Test
  void aRetriedCallReusesItsReservation_andAnUnsettledOneExpires() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    TenantCaps.Caps caps = new TenantCaps.Caps(Optional.of(1.0), Optional.empty());
    Instant now = Instant.parse("2026-11-26T10:00:00Z");
    for (TenantCounters c : List.of(new JsonlTenantCounters(tmp.resolve("j")), PostgresTenantCounters.open(db))) {
      try (c) {
        assertTrue(c.reserve("acme", caps, "EXCHANGE/wf/run/7", 0.6, now, now.plusSeconds(60)).granted());
        assertTrue(c.reserve("acme", caps, "EXCHANGE/wf/run/7", 0.6, now, now.plusSeconds(60)).granted(),
            "the retry finds its reservation");
        assertEquals(0.6, c.totals("acme", now).dayReserved(), 1e-9, "reserved once");
        TenantCounters.Decision refused = c.reserve("acme", caps, "EXCHANGE/wf/run/8", 0.6, now, now.plusSeconds(60));
        assertEquals(TenantCounters.DAY, refused.level());
        assertEquals(Instant.parse("2026-11-27T00:00:00Z"), refused.resets());
        Instant later = now.plusSeconds(61);
        assertTrue(c.reserve("acme", caps, "EXCHANGE/wf/run/8", 0.6, later, later.plusSeconds(60)).granted(),
            "the first worker died: its reservation expired");
        c.settle("EXCHANGE/wf/run/8", 0.25);
        assertEquals(0.25, c.totals("acme", later).daySpent(), 1e-9);
        assertEquals(0.0, c.totals("acme", later).dayReserved(), 1e-9);
      }
    }
  }

  /** What {@code cpctl spend} shows as reserved: unsettled, unexpired reservations per tenant, in both stores. */
  @Test
  void heldByTenant_isWhatIsReservedUnsettledAndUnexpired() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    TenantCaps.Caps caps = new TenantCaps.Caps(Optional.of(10.0), Optional.empty());
    Instant now = Instant.parse("2026-11-26T10:00:00Z");
    for (TenantCounters c : List.of(new JsonlTenantCounters(tmp.resolve("held")), PostgresTenantCounters.open(db))) {
      try (c) {
        assertTrue(c.reserve("acme", caps, "k/1", 0.5, now, now.plusSeconds(60)).granted());
        assertTrue(c.reserve("acme", caps, "k/2", 0.25, now, now.plusSeconds(60)).granted());
        assertTrue(c.reserve("acme", caps, "k/3", 1.0, now, now.plusSeconds(60)).granted());
        c.settle("k/3", 0.1);
        assertTrue(c.reserve("acme", caps, "k/4", 1.0, now.minusSeconds(120), now.minusSeconds(60)).granted());
        assertTrue(c.reserve("beta", caps, "k/5", 0.125, now, now.plusSeconds(60)).granted());
        assertTrue(c.reserve("gamma", caps, "k/6", 0.5, now, now.plusSeconds(60)).granted());
        c.release("k/6");
        assertEquals(java.util.Map.of("acme", 0.75, "beta", 0.125), c.heldByTenant(now), c.toString());
      }
    }
  }

  /** Issue 23 bench note: what one reservation and settlement cost against PostgreSQL (printed, not asserted). */
  @Test
  void postgresReservation_costPerCall_isPrinted() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    TenantCaps.Caps caps = new TenantCaps.Caps(Optional.of(1_000_000.0), Optional.empty());
    try (TenantCounters c = PostgresTenantCounters.open(db)) {
      int n = 300;
      for (int i = 0; i < 50; i++) {
        c.reserve("warm", caps, "w" + i, 0.01, Instant.now(), Instant.now().plusSeconds(60));
      }
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        c.reserve("acme", caps, "k" + i, 0.01, Instant.now(), Instant.now().plusSeconds(60));
        c.settle("k" + i, 0.005);
      }
      double ms = (System.nanoTime() - t0) / 1e6 / n;
      System.out.printf("tenant counters (PostgreSQL): reserve + settle %.3f ms per call over %d calls%n", ms, n);
    }
  }
}
