package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.ClientException;
import cp.ledger.LedgerEntry;
import cp.tools.ToolResult;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 23 item 2: the Java client's start names the session's tenant; SESSION_START records it. */
class TenantStartTest {
  @TempDir Path home;

  @Test
  void theClientsStart_namesTheTenant_inSessionStart_andRefusesABadOneBeforeStarting() {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()),
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String acme = plane.client.startSession("ADMIN", "acme");
      String plain = plane.client.startSession("ADMIN");
      plane.client.state(acme);
      plane.client.state(plain);
      assertEquals("acme", sessionStart(plane, acme).metaText("tenant"));
      assertEquals("default", sessionStart(plane, plain).metaText("tenant"));

      ClientException e = assertThrows(ClientException.class, () -> plane.client.startSession("ADMIN", "a/b"));
      assertEquals(ClientException.Kind.REFUSED, e.kind());
      assertTrue(e.getMessage().contains("tenant 'a/b' is not a tenant id"), e.getMessage());
    }
  }

  /**
   * Issue 23: a plane whose CP_TENANTS_FILE sets caps, with a model that has no price (CP_MODEL), could
   * keep no cap for any call of it: it does not start, naming CP_TENANTS_FILE, the model and
   * CP_PRICES_FILE. Before, it started and every turn of a capped tenant failed with "$0.0000 left and
   * this call reserves up to $Infinity … Try again after the reset", false (the cap was unspent) and
   * advice that could not help. With a price, or with no caps, the same plane starts.
   */
  @Test
  void tenantCapsWithAModelThatHasNoPrice_isAStartUpError_namingTheTenantsFileTheModelAndThePricesFile()
      throws Exception {
    Path tenants = java.nio.file.Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 0.10}}}");
    Map<String, String> anthropic = Map.of("CP_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "sk-ant-test-0123456789",
        "ANTHROPIC_BASE_URL", "http://127.0.0.1:9/", "CP_MODEL", "mystery-1");
    Map<String, String> capped = new java.util.HashMap<>(anthropic);
    capped.put("CP_TENANTS_FILE", tenants.toString());

    ConfigException e = assertThrows(ConfigException.class, () -> PlaneFixture.start(PlaneFixture.env(home, capped),
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none")).close());
    assertTrue(e.getMessage().contains("CP_TENANTS_FILE sets tenants' dollar caps, but model 'mystery-1'")
        && e.getMessage().contains("has no price") && e.getMessage().contains("CP_PRICES_FILE"), e.getMessage());
    assertEquals(1, e.getMessage().split("model 'mystery-1'", -1).length - 1, "one line per model: " + e.getMessage());

    Path prices = java.nio.file.Files.writeString(home.resolve("prices.json"),
        "{\"mystery-1\": {\"input_per_mtok\": 1, \"output_per_mtok\": 2}}");
    Map<String, String> priced = new java.util.HashMap<>(capped);
    priced.put("CP_PRICES_FILE", prices.toString());
    PlaneFixture.start(PlaneFixture.env(home, priced), deps -> (agent, session, tool, args, allowed) ->
        ToolResult.ok("none")).close();
    PlaneFixture.start(PlaneFixture.env(home, anthropic), deps -> (agent, session, tool, args, allowed) ->
        ToolResult.ok("none")).close();
  }

  private static LedgerEntry sessionStart(PlaneFixture plane, String sid) {
    return plane.runtime.ledgers().hot().bySession(sid).stream().filter(x -> x.eventType().equals("SESSION_START"))
        .findFirst().orElseThrow(() -> new AssertionError("no SESSION_START for " + sid));
  }

  /**
   * Issue 23: a tenant over its daily cap (CP_TENANTS_FILE) has its call refused before it is sent,
   * and the turn names the tenant's cap and when it resets; another tenant's session is unaffected.
   * The cap ($3) pays for the turn's smallest call (the classify call, up to $2.83 at these prices),
   * so the turn is admitted; what classify spent leaves too little for synthesize's worst case.
   */
  @Test
  void aTenantOverItsDailyCap_isRefusedBeforeTheCall_namingTheCapAndTheReset_othersAreNot() throws Exception {
    Path prices = java.nio.file.Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}");
    Path tenants = java.nio.file.Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 3.0}}}");
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of("CP_PRICES_FILE", prices.toString(),
        "CP_TENANTS_FILE", tenants.toString())), deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String acme = plane.client.startSession("ADMIN", "acme");
      var refused = plane.client.turn(acme, "hello");
      assertEquals("budget_exhausted", refused.errorCode(), refused::toString);
      assertTrue(refused.response().contains("USD budget (tenant_day)") && refused.response().contains("tenant acme's"
          + " daily cap $3.0000") && refused.response().contains("resets at"), refused.response());
      assertTrue(refused.response().contains("CP_TENANTS_FILE") && !refused.response().contains("token budget"),
          refused.response());
      assertEquals(1, plane.runtime.ledgers().hot().bySession(acme).stream()
          .filter(x -> x.eventType().equals("EXCHANGE")).count(), "classify was sent, synthesize was not");
      String other = plane.client.startSession("ADMIN", "beta");
      assertEquals("success", plane.client.turn(other, "hello").outcome());
    }
  }

  /**
   * Issue 23 (h10's gap): a tenant whose daily cap (as the shared counters hold it, here filled by
   * a second counters object on the same CP_HOME) cannot pay for the turn's smallest call is refused
   * up front: typed budget_exhausted naming tenant_day, the cap, what is spent, what the call needs
   * and when the day resets, before any provider call. Before, the turn ran and its first call was
   * refused by the gateway (a turn result, not a refusal, and a turn of the limit used).
   */
  @Test
  void aTenantWhoseDayCannotPayTheSmallestCall_isRefusedUpFront_namingTenantDay() throws Exception {
    Path prices = java.nio.file.Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}");
    Path tenants = java.nio.file.Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 50.0}}}");
    java.time.Instant now = java.time.Instant.now();
    try (var counters = new cp.gateway.JsonlTenantCounters(home)) {
      var caps = new cp.gateway.TenantCaps.Caps(java.util.Optional.of(50.0), java.util.Optional.empty());
      // What another worker spent today: all but a tenth of a cent.
      assertTrue(counters.reserve("acme", caps, "test/earlier", 49.999, now, now.plusSeconds(600)).granted());
      counters.settle("test/earlier", 49.999);
    }
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of("CP_PRICES_FILE", prices.toString(),
        "CP_TENANTS_FILE", tenants.toString())), deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String acme = plane.client.startSession("ADMIN", "acme");
      ClientException e = assertThrows(ClientException.class, () -> plane.client.turn(acme, "hello"));
      assertEquals(ClientException.Kind.REFUSED, e.kind(), e::toString);
      cp.model.Refusal r = e.refusal().orElseThrow(() -> new AssertionError("no typed refusal: " + e));
      assertEquals("budget_exhausted", r.code());
      assertEquals("tenant_day", r.level());
      assertEquals("usd", r.currency());
      assertEquals(50.0, r.capUsd(), 1e-9);
      assertEquals(49.999, r.spentUsd(), 1e-9);
      assertTrue(r.neededUsd() > 0.001, "the smallest call needs more than is left: " + r.neededUsd());
      assertEquals(cp.gateway.TenantCounters.dayResets(java.time.Instant.now()).toString(), r.resets());
      assertTrue(e.getMessage().contains("tenant acme's daily cap $50.0000") && e.getMessage().contains(
          "CP_TENANTS_FILE"), e.getMessage());
      assertEquals(0, plane.runtime.ledgers().hot().bySession(acme).stream()
          .filter(x -> x.eventType().equals("EXCHANGE")).count(), "nothing was sent");
      assertEquals(0, plane.client.state(acme).turns(), "the refused turn used no turn");
      String other = plane.client.startSession("ADMIN", "beta");
      assertEquals("success", plane.client.turn(other, "hello").outcome());
    }
  }

  /**
   * Issues 21/23 (tenant-capped 1), through a whole plane: with CP_TENANTS_FILE capping acme only,
   * a session of beta (no entry, no default) runs its turns without the tenant-admission local
   * activity (its history holds none), acme's session still asks before each turn; with no
   * CP_TENANTS_FILE at all, no session asks.
   */
  @Test
  void onlyACappedTenantsSession_asksItsTenantsRoomBeforeATurn() throws Exception {
    Path tenants = java.nio.file.Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 50.0}}}");
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of("CP_TENANTS_FILE", tenants.toString())),
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String acme = plane.client.startSession("ADMIN", "acme");
      String beta = plane.client.startSession("ADMIN", "beta");
      for (String sid : java.util.List.of(acme, beta)) {
        assertEquals("success", plane.client.turn(sid, "hello").outcome());
        assertEquals("success", plane.client.turn(sid, "again").outcome());
      }
      assertEquals(2, tenantChecks(plane, acme), "acme has a cap: asked before each turn");
      assertEquals(0, tenantChecks(plane, beta), "beta has none: never asked");
    }
  }

  @Test
  void withNoTenantsFile_noSessionAsksItsTenantsRoom() {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()),
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String plain = plane.client.startSession("ADMIN");
      assertEquals("success", plane.client.turn(plain, "hello").outcome());
      assertEquals(0, tenantChecks(plane, plain));
    }
  }

  /** How many tenant-admission local activities the session's history recorded. */
  private static long tenantChecks(PlaneFixture plane, String sid) {
    return plane.connection.client().fetchHistory(sid).getEvents().stream()
        .filter(e -> e.hasMarkerRecordedEventAttributes()).map(e -> e.getMarkerRecordedEventAttributes())
        .filter(m -> m.getMarkerName().equals("LocalActivity"))
        .filter(m -> m.getDetailsMap().get("type").getPayloads(0).getData().toStringUtf8().contains("TenantRoom"))
        .count();
  }
}
