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
}
