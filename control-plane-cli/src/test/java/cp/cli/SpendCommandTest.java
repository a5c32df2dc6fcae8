package cp.cli;

import static cp.cli.CliHarness.run;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 items 2 and 4: {@code cpctl chat --tenant} names the session's tenant, and {@code cpctl
 * spend} reports what the calls cost per tenant, model or day, adding up to the EXCHANGE costs.
 * The offline model is given a price (CP_PRICES_FILE) so that its calls cost something.
 */
class SpendCommandTest {
  @TempDir static Path home;
  static Map<String, String> env;

  @BeforeAll
  static void twoTenantsChat() throws Exception {
    env = new HashMap<>(CliHarness.env(home));
    env.put("CP_PRICES_FILE", Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}").toString());
    var acme = runWithInput(env, "hello\nwhat packages are installed?\nexit\n", "chat", "--tenant", "acme");
    assertEquals(Cpctl.OK, acme.code(), acme::describe);
    var plain = runWithInput(env, "hello\nexit\n", "chat");
    assertEquals(Cpctl.OK, plain.code(), plain::describe);
  }

  private static JsonNode spend(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "spend";
    all[1] = "--json";
    System.arraycopy(args, 0, all, 2, args.length);
    var r = run(env, all);
    assertEquals(Cpctl.OK, r.code(), r::describe);
    return Json.parse(r.out().strip());
  }

  /** Every EXCHANGE's cost_usd, summed per tenant, straight from the ledger. */
  private static Map<String, Double> exchangeCosts() {
    var r = run(env, "ledger", "query", "--tier", "hot", "--event", "EXCHANGE", "--limit", "0", "--json");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    Map<String, Double> byTenant = new HashMap<>();
    r.out().lines().filter(l -> !l.isBlank()).map(Json::parse).forEach(e -> byTenant.merge(
        e.path("metadata").path("tenant").asText(), e.path("metadata").path("cost_usd").asDouble(), Double::sum));
    return byTenant;
  }

  @Test
  void byTenant_addsUpToTheExchangeCosts_andTheTenantsAreApart() {
    JsonNode report = spend();
    Map<String, Double> expected = exchangeCosts();
    assertEquals(java.util.Set.of("acme", "default"), expected.keySet());
    assertEquals(2, report.get("groups").size(), report.toString());
    for (JsonNode g : report.get("groups")) {
      assertTrue(g.get("spent_usd").asDouble() > 0, report.toString());
      assertEquals(expected.get(g.get("group").asText()), g.get("spent_usd").asDouble(), 1e-12);
    }
    assertEquals(expected.values().stream().mapToDouble(Double::doubleValue).sum(), report.get("total_usd").asDouble(),
        1e-12);
  }

  @Test
  void oneTenant_byModel_andSince() {
    JsonNode acme = spend("--tenant", "acme", "--by", "model");
    assertEquals("acme", acme.get("tenant").asText());
    assertEquals(1, acme.get("groups").size(), acme.toString());
    assertEquals("offline-rules-1", acme.get("groups").get(0).get("group").asText());
    assertEquals(exchangeCosts().get("acme"), acme.get("total_usd").asDouble(), 1e-12);
    assertEquals(0, spend("--since", "2999-01-01").get("groups").size());
    JsonNode byDay = spend("--by", "day");
    assertEquals(1, byDay.get("groups").size(), byDay.toString());
    JsonNode byAgent = spend("--by", "agent");
    assertEquals("ADMIN", byAgent.get("groups").get(0).get("group").asText(), byAgent.toString());
    assertEquals(1, byAgent.get("groups").size(), byAgent.toString());
  }

  /**
   * h10's gap: the report shows what the tenant counters hold unsettled (calls in flight) per
   * tenant beside what was spent; a settled reservation is spent (in its EXCHANGE), an expired one
   * holds nothing. Before, the report had no reserved figures at all.
   */
  @Test
  void reserved_isWhatTheCountersHoldUnsettled_perTenant_inTheTableAndJson() {
    java.time.Instant now = java.time.Instant.now();
    var caps = new cp.gateway.TenantCaps.Caps(java.util.Optional.of(100.0), java.util.Optional.empty());
    try (var counters = new cp.gateway.JsonlTenantCounters(home)) {
      assertTrue(counters.reserve("acme", caps, "test/held-1", 0.25, now, now.plusSeconds(600)).granted());
      assertTrue(counters.reserve("acme", caps, "test/held-2", 0.125, now, now.plusSeconds(600)).granted());
      assertTrue(counters.reserve("acme", caps, "test/settled", 0.5, now, now.plusSeconds(600)).granted());
      counters.settle("test/settled", 0.01);
      assertTrue(counters.reserve("acme", caps, "test/expired", 0.5, now.minusSeconds(600), now.minusSeconds(1))
          .granted());
      assertTrue(counters.reserve("inflight", caps, "test/only-in-flight", 0.0625, now, now.plusSeconds(600))
          .granted());
    }
    JsonNode all = spend();
    assertEquals(0.25 + 0.125 + 0.0625, all.get("reserved_usd").asDouble(), 1e-12, all.toString());
    assertEquals(0.375, all.get("reserved_by_tenant").get("acme").asDouble(), 1e-12, all.toString());
    Map<String, JsonNode> rows = new HashMap<>();
    all.get("groups").forEach(g -> rows.put(g.get("group").asText(), g));
    assertEquals(0.375, rows.get("acme").get("reserved_usd").asDouble(), 1e-12, all.toString());
    assertEquals(0.0, rows.get("default").get("reserved_usd").asDouble(), 1e-12, all.toString());
    assertEquals(0.0625, rows.get("inflight").get("reserved_usd").asDouble(), 1e-12, all.toString());
    assertEquals(0, rows.get("inflight").get("calls").asInt(), "a tenant with only calls in flight has a row");
    assertEquals(exchangeCosts().values().stream().mapToDouble(Double::doubleValue).sum(),
        all.get("total_usd").asDouble(), 1e-12, "what is held is not spent");

    JsonNode acme = spend("--tenant", "acme", "--by", "model");
    assertEquals(0.375, acme.get("reserved_usd").asDouble(), 1e-12, acme.toString());
    assertEquals(1, acme.get("reserved_by_tenant").size(), acme.toString());

    var table = run(env, "spend");
    assertEquals(Cpctl.OK, table.code(), table::describe);
    assertTrue(table.out().lines().findFirst().orElseThrow().contains("reserved_usd"), table::describe);
    assertTrue(table.out().lines().anyMatch(l -> l.startsWith("acme") && l.strip().endsWith("0.375000")),
        table::describe);
    var byModel = run(env, "spend", "--by", "model");
    assertTrue(byModel.out().contains("reserved (tenant acme)"), byModel::describe);
  }

  /** The held reservations end unbilled, so the other tests of the shared home see only the chats' spend. */
  @org.junit.jupiter.api.AfterEach
  void releaseWhatTheTestHeld() {
    try (var counters = new cp.gateway.JsonlTenantCounters(home)) {
      java.util.List.of("test/held-1", "test/held-2", "test/only-in-flight").forEach(counters::release);
    }
  }

  @Test
  void badOptions_areOneLineErrors() {
    CliHarness.assertOneLineError(run(env, "spend", "--by", "week"), Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "spend", "--since", "yesterday"), Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "spend", "--tenant", "a b"), Cpctl.BAD_INPUT);
    var text = run(env, "spend");
    assertTrue(text.out().contains("tenant") && text.out().contains("total"), text::describe);
  }
}
