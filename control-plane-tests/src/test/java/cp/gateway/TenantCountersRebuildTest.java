package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.Ledger;
import cp.ledger.LedgerDatabase;
import cp.ledger.TestPostgres;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 "can be rebuilt from the ledger": a capped tenant calls until its daily cap refuses it;
 * its counters are then lost (the JSONL file corrupted, the PostgreSQL rows deleted), so a new
 * counters object sees nothing spent; {@link SpendRebuild} rebuilds them from the HOT ledger's
 * EXCHANGEs, and the tenant is refused again exactly as before, nothing sent. A second rebuild
 * changes nothing; a tenant with a call in flight is left alone.
 */
class TenantCountersRebuildTest {
  @TempDir Path tmp;

  private static void scenario(Supplier<TenantCounters> store, Path home, Runnable loseTheCounters) throws Exception {
    TenantSpendConcurrencyTest.Billing provider = new TenantSpendConcurrencyTest.Billing();
    Files.createDirectories(home);
    try (Ledger hot = Ledger.open(home.resolve("HOT/ledger/governance.jsonl"),
        cp.ledger.LedgerOptions.of(cp.ledger.Durability.NONE))) {
      String refusal;
      double spent;
      try (TenantCounters c = store.get()) {
        Gateway g = gateway(hot, home, provider, c);
        PromptResponse r;
        int session = 0;
        while ((r = g.route(TenantSpendConcurrencyTest.call("acme", session++))).outcome() == RouteOutcome.SUCCESS) {
          assertTrue(session < 1000, "the cap never refused");
        }
        assertEquals(Gateway.BUDGET_EXHAUSTED, r.errorCode(), r.errorMessage());
        refusal = r.errorMessage();
        assertEquals(RouteOutcome.SUCCESS, g.route(TenantSpendConcurrencyTest.call("beta", 1)).outcome());
        spent = c.totals("acme", Instant.now()).daySpent();
        assertTrue(spent > 0.9, "the cap was used: " + spent);
      }
      loseTheCounters.run();
      try (TenantCounters c = store.get()) {
        assertEquals(0.0, c.totals("acme", Instant.now()).daySpent(), 1e-12, "the counters lost the spend");

        List<TenantCounters.Rebuilt> rebuilt = SpendRebuild.run(c, hot.readAll(), Optional.empty(), Instant.now());

        TenantCounters.Rebuilt acme = rebuilt.stream().filter(x -> x.tenant().equals("acme")).findFirst().orElseThrow();
        assertTrue(acme.done(), acme.toString());
        assertEquals(0.0, acme.before().daySpent(), 1e-12);
        assertEquals(spent, acme.after().daySpent(), 1e-9, "the day's spend is back, from the EXCHANGEs");
        assertEquals(spent, acme.after().monthSpent(), 1e-9);
        assertEquals(List.of("acme", "beta"), rebuilt.stream().map(TenantCounters.Rebuilt::tenant).toList());
        Gateway g = gateway(hot, home, provider, c);
        int calls = provider.calls.get();
        PromptResponse again = g.route(TenantSpendConcurrencyTest.call("acme", 999));
        assertEquals(Gateway.BUDGET_EXHAUSTED, again.errorCode(), again.errorMessage());
        assertEquals(refusal, again.errorMessage(), "refused exactly as before the counters were lost");
        assertEquals(calls, provider.calls.get(), "nothing was sent");

        TenantCounters.Rebuilt twice = SpendRebuild.run(c, hot.readAll(), Optional.of("acme"), Instant.now()).get(0);
        assertEquals(twice.before(), twice.after(), "a second rebuild from the same ledger changes nothing");
      }
      try (TenantCounters restarted = store.get()) {
        assertEquals(spent, restarted.totals("acme", Instant.now()).daySpent(), 1e-9, "the rebuild is durable");
      }
    }
  }

  private static Gateway gateway(Ledger hot, Path home, TenantSpendConcurrencyTest.Billing p, TenantCounters c) {
    return TenantSpendConcurrencyTest.gatewayFor(hot, home, p, c);
  }

  @Test
  void jsonl_corruptedCountersFile_rebuiltFromTheLedger_refusesTheTenantAgainAsBefore() throws Exception {
    Path home = tmp.resolve("home");
    scenario(() -> new JsonlTenantCounters(home), home, () -> {
      try {
        Files.writeString(home.resolve(JsonlTenantCounters.FILE), "{\"op\": \"reserve\", \"key\": \"garbage\n\u0000\u0000");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  @Test
  void jsonl_deletedCountersFile_rebuiltFromTheLedger_refusesTheTenantAgainAsBefore() throws Exception {
    Path home = tmp.resolve("home");
    scenario(() -> new JsonlTenantCounters(home), home, () -> {
      try {
        Files.delete(home.resolve(JsonlTenantCounters.FILE));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  @Test
  void postgres_deletedRows_rebuiltFromTheLedger_refusesTheTenantAgainAsBefore() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    scenario(() -> PostgresTenantCounters.open(db), tmp.resolve("host"),
        () -> TestPostgres.sql(db, "DELETE FROM cp_tenant_reservations"));
  }

  @Test
  void postgres_deletedDayRows_rebuiltFromTheLedger_refusesTheTenantAgainAsBefore() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    scenario(() -> PostgresTenantCounters.open(db), tmp.resolve("host"),
        () -> TestPostgres.sql(db, "DELETE FROM cp_tenant_days"));
  }

  /**
   * Counters written before the day rows existed (migration 1 only: settled calls as per-call rows)
   * keep their spend when migration 2 adds the day rows, and later settlements add to them.
   */
  @Test
  void postgres_countersOfMigration1_keepTheirSpend_whenTheDayRowsArrive() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    org.flywaydb.core.Flyway.configure().dataSource(db.url(), db.user(), db.password()).locations("classpath:db/spend")
        .table("cp_spend_schema_history").baselineVersion("0").baselineOnMigrate(true).target("1").load().migrate();
    Instant now = Instant.now();
    String day = TenantCounters.day(now);
    String month = TenantCounters.month(now);
    TestPostgres.sql(db, "INSERT INTO cp_tenant_reservations (call_key, tenant, day, month, amount, expires_at, actual)"
        + " VALUES ('k/1', 'acme', '" + day + "', '" + month + "', 1.0, now(), 0.25),"
        + " ('k/2', 'acme', '" + day + "', '" + month + "', 1.0, now(), 0.5),"
        + " ('k/3', 'acme', '" + month + "-00', '" + month + "', 1.0, now(), 2.0)");
    try (TenantCounters c = PostgresTenantCounters.open(db)) {
      assertEquals(0.75, c.totals("acme", now).daySpent(), 1e-12);
      assertEquals(2.75, c.totals("acme", now).monthSpent(), 1e-12);
      TenantCaps.Caps caps = new TenantCaps.Caps(Optional.of(10.0), Optional.empty());
      assertTrue(c.reserve("acme", caps, "k/4", 1.0, now, now.plusSeconds(60)).granted());
      assertEquals(1.0, c.totals("acme", now).dayReserved(), 1e-12);
      c.settle("k/4", 0.125);
      assertEquals(0.875, c.totals("acme", now).daySpent(), 1e-12);
      assertEquals(0.0, c.totals("acme", now).dayReserved(), 1e-12);
    }
  }

  /** A tenant holding a reservation in flight is not rebuilt (its call may settle before its EXCHANGE is written). */
  @Test
  void aTenantWithACallInFlight_isLeftAlone_inBothStores() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    TenantCaps.Caps caps = new TenantCaps.Caps(Optional.of(10.0), Optional.empty());
    Instant now = Instant.now();
    for (TenantCounters c : List.of(new JsonlTenantCounters(tmp.resolve("j")), PostgresTenantCounters.open(db))) {
      try (c) {
        assertTrue(c.reserve("acme", caps, "k/1", 1.0, now, now.plusSeconds(60)).granted());
        c.settle("k/1", 0.5);
        assertTrue(c.reserve("acme", caps, "k/2", 2.0, now, now.plusSeconds(60)).granted());

        TenantCounters.Rebuilt r = c.rebuild("acme", Map.of(TenantCounters.day(now), 7.0), now);

        assertFalse(r.done());
        assertEquals(1, r.inFlight());
        assertEquals(0.5, c.totals("acme", now).daySpent(), 1e-12, "unchanged");
        assertEquals(2.0, c.totals("acme", now).dayReserved(), 1e-12, "the call in flight keeps its reservation");
        c.settle("k/2", 0.25);
        TenantCounters.Rebuilt later = c.rebuild("acme", Map.of(TenantCounters.day(now), 7.0), now);
        assertTrue(later.done());
        assertEquals(7.0, c.totals("acme", now).daySpent(), 1e-12, "the settled calls replaced by the ledger's day");
      }
    }
  }
}
