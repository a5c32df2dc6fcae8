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

  @Test
  void badOptions_areOneLineErrors() {
    CliHarness.assertOneLineError(run(env, "spend", "--by", "week"), Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "spend", "--since", "yesterday"), Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "spend", "--tenant", "a b"), Cpctl.BAD_INPUT);
    var text = run(env, "spend");
    assertTrue(text.out().contains("tenant") && text.out().contains("total"), text::describe);
  }
}
