package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.Ledgers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tester's report: {@code --tenant ""} was accepted and became {@code default}, and {@code --tenant
 * ACME} started a session of a tenant other than acme (ids are case-sensitive), outside acme's caps.
 * Both are refused before a session starts, exit 2, one line.
 */
class TenantOptionTest {
  @TempDir Path home;

  private Map<String, String> withTenantsFile() throws Exception {
    Path file = Files.writeString(home.resolveSibling(home.getFileName() + "-tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 5.0}}}");
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_TENANTS_FILE", file.toString());
    return env;
  }

  private String sessionTenant() {
    try (Ledgers l = Ledgers.open(home)) {
      return l.hot().byEventType("SESSION_START").get(0).metaText("tenant");
    }
  }

  private boolean anySessionStarted() {
    if (!Files.exists(home.resolve("HOT/ledger/governance.jsonl"))) {
      return false;
    }
    try (Ledgers l = Ledgers.open(home)) {
      return !l.hot().byEventType("SESSION_START").isEmpty();
    }
  }

  @Test
  void chatWithAnEmptyOrBlankTenant_isRefused_notTurnedIntoDefault() {
    for (String blank : new String[] {"", "   "}) {
      var r = runWithInput(CliHarness.env(home), "hello\n", "chat", "--tenant", blank);
      assertOneLineError(r, Cpctl.BAD_INPUT);
      assertTrue(r.err().contains("--tenant is empty"), r::describe);
      assertEquals("", r.out(), r::describe);
    }
    assertFalse(anySessionStarted(), "no session started");
  }

  @Test
  void sessionStartWithAnEmptyTenant_isRefused() {
    var r = CliHarness.run(CliHarness.env(home), "session", "start", "--tenant", "");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--tenant is empty"), r::describe);
  }

  @Test
  void aTenantDifferingOnlyInCaseFromAConfiguredOne_isRefusedWithTheOneItResembles() throws Exception {
    var r = runWithInput(withTenantsFile(), "hello\n", "chat", "--tenant", "ACME");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--tenant 'ACME' differs only in case from the tenant 'acme' of CP_TENANTS_FILE")
        && r.err().contains("did you mean --tenant acme?"), r::describe);
    assertFalse(anySessionStarted(), "no session started");
  }

  @Test
  void defaultInAnotherCase_isRefusedToo() {
    var r = runWithInput(CliHarness.env(home), "hello\n", "chat", "--tenant", "Default");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("did you mean --tenant default?"), r::describe);
  }

  @Test
  void theConfiguredTenantItself_andAnUnrelatedOne_areTaken() throws Exception {
    var r = runWithInput(withTenantsFile(), "hello\n", "chat", "--tenant", "acme");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals("acme", sessionTenant());
  }
}
