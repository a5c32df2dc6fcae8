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

  private static LedgerEntry sessionStart(PlaneFixture plane, String sid) {
    return plane.runtime.ledgers().hot().bySession(sid).stream().filter(x -> x.eventType().equals("SESSION_START"))
        .findFirst().orElseThrow(() -> new AssertionError("no SESSION_START for " + sid));
  }

  /**
   * Issue 23: a tenant over its daily cap (CP_TENANTS_FILE) has its call refused before it is sent,
   * and the turn names the tenant's cap and when it resets; another tenant's session is unaffected.
   */
  @Test
  void aTenantOverItsDailyCap_isRefusedBeforeTheCall_namingTheCapAndTheReset_othersAreNot() throws Exception {
    Path prices = java.nio.file.Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}");
    Path tenants = java.nio.file.Files.writeString(home.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 0.001}}}");
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of("CP_PRICES_FILE", prices.toString(),
        "CP_TENANTS_FILE", tenants.toString())), deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String acme = plane.client.startSession("ADMIN", "acme");
      var refused = plane.client.turn(acme, "hello");
      assertEquals("budget_exhausted", refused.errorCode(), refused::toString);
      assertTrue(refused.response().contains("USD budget (tenant_day)") && refused.response().contains("tenant acme's"
          + " daily cap $0.0010") && refused.response().contains("resets at"), refused.response());
      assertTrue(refused.response().contains("CP_TENANTS_FILE") && !refused.response().contains("token budget"),
          refused.response());
      assertEquals(0, plane.runtime.ledgers().hot().bySession(acme).stream()
          .filter(x -> x.eventType().equals("EXCHANGE")).count(), "nothing was sent");
      String other = plane.client.startSession("ADMIN", "beta");
      assertEquals("success", plane.client.turn(other, "hello").outcome());
    }
  }
}
