package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.JsonlTenantCounters;
import cp.gateway.TenantCaps;
import cp.gateway.TenantCounters;
import cp.ledger.LedgerEntry;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 (h10's gap): the degraded call, the session's last resort after HO2 failed, belongs to
 * the session's tenant like every other call: it reserves and settles that tenant's dollars in the
 * shared counters, its EXCHANGE names the tenant, and a tenant over its daily cap has it refused,
 * naming {@code tenant_day}. Real runtime against a local fake of the Messages API; the tenant
 * counters are read (and, for the refusal, filled) through a second counters object on the
 * plane's CP_HOME, as a second process would.
 */
class DegradedTenantEndToEndTest extends FaultyAnthropicPlaneTest {
  /** Far above what a few test calls cost at $3/$15 per Mtok, so only the test's own filling refuses. */
  static final double DAILY_CAP_USD = 1.0;

  private Path home;

  @BeforeAll
  void start(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    home = dir.resolve("home");
    Path tenants = Files.writeString(dir.resolve("tenants.json"), "{\"tenants\": {\"acme\": {\"daily_usd\": "
        + DAILY_CAP_USD + "}, \"beta\": {\"daily_usd\": " + DAILY_CAP_USD + "}}}");
    startPlane(home, Map.of("CP_PRICE_INPUT_PER_MTOK", "3", "CP_PRICE_OUTPUT_PER_MTOK", "15", "CP_BREAKER_FAILURES",
        "1000", "CP_TENANTS_FILE", tenants.toString(), "CP_TENANT_WAIT_MS", "200"));
  }

  // Before: the degraded call carried no tenant, so its EXCHANGE said "default" and acme's
  // counters held only the classify call's cost.
  @Test
  void theDegradedCall_isTheSessionsTenants_itsCostCountedInTheTenantsCounters() {
    model.failSynthesize(List.of(() -> FaultyAnthropic.error(400, "invalid_request_error", "bad request (test)")));
    String sid = plane.client.startSession("ADMIN", "acme");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.DEGRADED, r.outcome(), r::toString);
    List<LedgerEntry> exchanges = exchanges(sid);
    assertEquals(3, exchanges.size(), "classify, the failed synthesize, the degraded call: " + exchanges);
    exchanges.forEach(e -> assertEquals("acme", e.metaText("tenant"), e::toString));
    double billed = exchanges.stream().mapToDouble(e -> e.meta("cost_usd") == null ? 0 : e.meta("cost_usd").asDouble())
        .sum();
    assertTrue(billed > 0, "priced calls");
    try (JsonlTenantCounters counters = new JsonlTenantCounters(home)) {
      TenantCounters.Totals t = counters.totals("acme", Instant.now());
      assertEquals(billed, t.daySpent(), 1e-12, "acme's counters hold every call's cost, the degraded one's too");
      assertEquals(0, t.dayReserved(), 1e-12, "nothing left held");
    }
  }

  // Before: the degraded call reserved against "default" (no cap) and was sent although beta's
  // day was spent, and a refusal would have told the user about the session's token budget.
  @Test
  void aTenantOverItsDailyCap_hasTheDegradedCallRefused_namingTenantDay() {
    // While synthesize is in flight, another process spends the rest of beta's day; synthesize then fails.
    model.failSynthesize(List.of(() -> {
      spendTheRestOfTheDay("beta");
      return FaultyAnthropic.error(400, "invalid_request_error", "bad request (test)");
    }));
    String sid = plane.client.startSession("ADMIN", "beta");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("budget_exhausted", r.errorCode(), r::toString);
    assertTrue(r.response().contains("USD budget (tenant_day)") && r.response().contains("tenant beta's daily cap")
        && r.response().contains("resets at") && r.response().contains("CP_TENANTS_FILE"), r.response());
    assertFalse(r.response().contains("token budget"), r.response());
    assertEquals(2, exchanges(sid).size(), "classify and the failed synthesize; the degraded call was not sent");
  }

  /** What a second process sharing CP_HOME does: spends all that is left of {@code tenant}'s day. */
  private void spendTheRestOfTheDay(String tenant) {
    try (JsonlTenantCounters counters = new JsonlTenantCounters(home)) {
      Instant now = Instant.now();
      TenantCounters.Totals t = counters.totals(tenant, now);
      double free = DAILY_CAP_USD - t.daySpent() - t.dayReserved();
      String key = "test/fill-" + tenant + "-" + now.toEpochMilli();
      TenantCaps.Caps caps = new TenantCaps.Caps(Optional.of(DAILY_CAP_USD), Optional.empty());
      assertTrue(counters.reserve(tenant, caps, key, free, now, now.plusSeconds(600)).granted());
      // Settled to all that was not yet spent: once synthesize releases its hold, the day is spent exactly.
      counters.settle(key, DAILY_CAP_USD - t.daySpent());
    }
  }

  private List<LedgerEntry> exchanges(String sid) {
    return plane.runtime.ledgers().hot().bySession(sid).stream().filter(e -> e.eventType().equals("EXCHANGE"))
        .toList();
  }
}
