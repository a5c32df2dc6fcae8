package cp.cli;

import static cp.cli.CliHarness.run;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.JsonlTenantCounters;
import cp.model.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: {@code cpctl spend --rebuild} rebuilds the tenant counters from the HOT ledger. A chat
 * of tenant acme spends its $3 day (turn 2 is refused up front); the counters file is then
 * corrupted, so the counters hold nothing (the rebuild's "before" says so); after the rebuild the
 * next chat of acme is refused up front again, with the same figures. At the offline model's price here ($1000/$3000 per million)
 * the classify call alone reserves up to about $2.83.
 */
class SpendRebuildCommandTest {
  @TempDir Path home;

  @Test
  void aCorruptedCountersFile_rebuiltFromTheLedger_refusesTheTenantUpFrontAsBefore() throws Exception {
    Map<String, String> env = new HashMap<>(CliHarness.env(home));
    env.put("CP_PRICES_FILE", Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}").toString());
    env.put("CP_TENANTS_FILE", Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 3.0}}}").toString());
    var first = runWithInput(env, "hello\nhello\nexit\n", "chat", "--tenant", "acme");
    List<String> refusedBefore = refusals(first.out() + first.err());
    assertEquals(1, refusedBefore.size(), first::describe);
    Path counters = home.resolve(JsonlTenantCounters.FILE);
    assertTrue(Files.size(counters) > 0, "the chat's calls were reserved and settled in " + counters);

    Files.writeString(counters, "{\"op\": \"settle\", \"key\": \u0000\u0000 torn");

    var r = run(env, "spend", "--rebuild", "--json");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    JsonNode rebuilt = Json.parse(r.out().strip()).get("rebuilt");
    assertEquals(1, rebuilt.size(), r.out());
    JsonNode acme = rebuilt.get(0);
    assertEquals("acme", acme.get("tenant").asText());
    assertTrue(acme.get("done").asBoolean(), r.out());
    assertEquals(0.0, acme.get("before").get("day_spent_usd").asDouble(), 1e-12, "the counters had lost it: " + r.out());
    JsonNode report = Json.parse(run(env, "spend", "--tenant", "acme", "--json").out().strip());
    assertEquals(report.get("total_usd").asDouble(), acme.get("after").get("day_spent_usd").asDouble(), 1e-9,
        "the counters hold what the ledger's EXCHANGEs cost: " + r.out());
    var again = runWithInput(env, "hello\nexit\n", "chat", "--tenant", "acme");
    List<String> refusedAfter = refusals(again.out() + again.err());
    assertEquals(1, refusedAfter.size(), again::describe);
    assertTrue(refusedAfter.get(0).contains("tenant acme's daily cap $3.0000"), refusedAfter.get(0));
    assertEquals(afterSession(refusedBefore.get(0)), afterSession(refusedAfter.get(0)), "the same figures as before");

    var table = run(env, "spend", "--rebuild");
    assertEquals(Cpctl.OK, table.code(), table::describe);
    assertTrue(table.out().contains("acme") && table.out().contains(" → "), table.out());
  }

  // Before: the ledger named no tenant yet (the tenant's first call was still in flight), so the
  // rebuild printed the table's header alone and exited 0, saying nothing of the call it left alone.
  @Test
  void rebuildWithoutTenant_whileATenantsFirstCallIsInFlight_namesThatTenantAsNotRebuilt() throws Exception {
    Map<String, String> env = new HashMap<>(CliHarness.env(home));
    env.put("CP_TENANTS_FILE", Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 3.0}}}").toString());
    java.time.Instant now = java.time.Instant.now();
    try (JsonlTenantCounters counters = new JsonlTenantCounters(home)) {
      assertTrue(counters.reserve("acme", new cp.gateway.TenantCaps.Caps(java.util.Optional.of(3.0),
          java.util.Optional.empty()), "EXCHANGE/SES-00000001/turn-0001/run/act", 0.25, now, now.plusSeconds(600))
          .granted());
    }

    var r = run(env, "spend", "--rebuild");

    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(r.out().contains("acme") && r.out().contains("not rebuilt: 1 call(s) in flight"), r.out());
  }

  @Test
  void rebuildWithoutTenant_withNothingToRebuild_saysSo() {
    var r = run(new HashMap<>(CliHarness.env(home)), "spend", "--rebuild");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("nothing to rebuild"), r.out());
  }

  // Before: the rebuild opened the ledgers it only reads for writing, which moved a torn tail of the HOT
  // ledger to a .torn-* file and appended a TORN entry, as no other reading command does.
  @Test
  void rebuild_leavesATornTailOfTheHotLedgerWhereItIs_andSaysSoAsReadingCommandsDo() throws Exception {
    Map<String, String> env = new HashMap<>(CliHarness.env(home));
    env.put("CP_PRICES_FILE", Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}").toString());
    var chat = runWithInput(env, "hello\nexit\n", "chat", "--tenant", "acme");
    assertEquals(Cpctl.OK, chat.code(), chat::describe);
    Path ledgers = home.resolve("HOT/ledger");
    Files.writeString(ledgers.resolve("governance.jsonl"), ReadOnlyCommandsTest.TORN,
        java.nio.charset.StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    Map<String, String> before = ReadOnlyCommandsTest.tree(ledgers);

    var r = run(env, "spend", "--rebuild", "--tenant", "acme", "--json");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(before, ReadOnlyCommandsTest.tree(ledgers), "the rebuild changed the HOT ledger\n" + r.describe());
    List<String> warnings = r.err().lines().filter(l -> l.contains("HOT/ledger/governance.jsonl")).toList();
    assertEquals(1, warnings.size(), r.describe());
    assertTrue(warnings.get(0).contains("incomplete") && warnings.get(0).contains("cpctl ledger repair --tier hot"),
        warnings.get(0));
    JsonNode acme = Json.parse(r.out().strip()).get("rebuilt").get(0);
    assertTrue(acme.get("after").get("day_spent_usd").asDouble() > 0, "the complete lines were read: " + r.out());
  }

  @Test
  void rebuildWithSince_isRefusedInOneLine() {
    var r = run(new HashMap<>(CliHarness.env(home)), "spend", "--rebuild", "--since", "2026-11-01");
    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.err().contains("--rebuild reads the whole ledger"), r.err());
  }

  /** A refusal without its session's id. */
  private static String afterSession(String line) {
    return line.substring(line.indexOf("cannot pay for this turn"));
  }

  /** The lines saying a turn was refused up front for the tenant's cap. */
  private static List<String> refusals(String output) {
    return output.lines().filter(l -> l.contains("cannot pay for this turn")).toList();
  }
}
