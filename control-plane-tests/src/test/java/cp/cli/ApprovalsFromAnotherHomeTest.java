package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20: {@code cpctl approvals} run with another {@code CP_HOME} than the worker's said "no
 * approvals pending" while one was: it read the sessions from its own (empty) ledgers. The service
 * is the authority; any host or plane root sees what waits there, and can decide it.
 */
class ApprovalsFromAnotherHomeTest {
  @TempDir Path workerHome;
  @TempDir Path otherHome;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void approvals_fromAnotherPlaneRoot_listsThePendingCall_andApproveThereDecidesIt() throws Exception {
    ApprovalIT.WriteModel model = new ApprovalIT.WriteModel();
    try (MockWebServer provider = new MockWebServer()) {
      provider.setDispatcher(model);
      provider.start(InetAddress.getLoopbackAddress(), 0);
      Map<String, String> workerEnv = Map.of("CP_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "test-key",
          "ANTHROPIC_BASE_URL", "http://127.0.0.1:" + provider.getPort());
      try (SharedService service = SharedService.start(workerHome, workerEnv)) {
        Map<String, String> here = service.env();
        Map<String, String> elsewhere = new HashMap<>(CliHarness.env(otherHome));
        elsewhere.put("TEMPORAL_ADDRESS", here.get("TEMPORAL_ADDRESS"));
        CliHarness.Run start = CliHarness.run(here, "session", "start");
        assertEquals(Cpctl.OK, start.code(), start::describe);
        String sid = start.out().trim();
        CompletableFuture<CliHarness.Run> turn = CompletableFuture.supplyAsync(
            () -> CliHarness.run(here, "turn", "--session", sid, ApprovalIT.QUESTION));

        JsonNode pending = awaitPending(elsewhere, turn);
        assertEquals(sid, pending.path("session_id").asText(), pending.toString());
        assertEquals("write_file", pending.path("tool").asText(), pending.toString());
        String id = pending.path("approval_id").asText();
        CliHarness.Run text = CliHarness.run(elsewhere, "approvals");
        assertEquals(Cpctl.OK, text.code(), text::describe);
        assertTrue(text.out().contains(id) && text.out().contains("cpctl approve " + sid + " " + id), text::describe);

        CliHarness.Run approve = CliHarness.run(elsewhere, "approve", sid, id, "--by", "carol");
        assertEquals(Cpctl.OK, approve.code(), approve::describe);
        CliHarness.Run done = turn.get(60, TimeUnit.SECONDS);
        assertEquals(Cpctl.OK, done.code(), done::describe);
        assertTrue(done.out().contains(ApprovalIT.ANSWER), done::describe);
        CliHarness.Run none = CliHarness.run(elsewhere, "approvals");
        assertEquals("no approvals pending in the open sessions on the service", none.out().trim(), none::describe);
      }
    }
  }

  /** Polls {@code cpctl approvals --json} from the other plane root until the call waits there. */
  private static JsonNode awaitPending(Map<String, String> env, CompletableFuture<CliHarness.Run> turn)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
    String last = "";
    while (System.nanoTime() < until) {
      CliHarness.Run r = CliHarness.run(env, "approvals", "--json");
      assertEquals(Cpctl.OK, r.code(), r::describe);
      last = r.out();
      JsonNode list = Json.parse(r.out());
      if (list.size() > 0) {
        return list.get(0);
      }
      if (turn.isDone()) {
        fail("the turn ended before its call was seen waiting: " + turn.join().describe());
      }
      Thread.sleep(200);
    }
    fail("'cpctl approvals' from another CP_HOME never listed the pending call; last answer: " + last);
    return null;
  }
}
