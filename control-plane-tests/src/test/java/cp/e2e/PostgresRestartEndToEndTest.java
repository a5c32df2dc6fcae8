package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.ControlPlaneClient;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger database restarted in the middle of a session (CP_LEDGER_URL, a real embedded
 * PostgreSQL): the turn that runs while it is down waits on Temporal's retries and finishes when it
 * is back; every chain verifies and nothing is written twice.
 */
class PostgresRestartEndToEndTest {
  @TempDir Path home;
  @TempDir Path data;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void databaseRestartedDuringATurn_theTurnFinishes_nothingTwiceNothingLost() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    EmbeddedPostgres pg = start(port);
    Map<String, String> env = new HashMap<>();
    env.put("CP_HOME", home.toString());
    env.put("CP_PROVIDER", "offline");
    env.put("CP_LEDGER_URL", "jdbc:postgresql://localhost:" + port + "/postgres");
    env.put("CP_LEDGER_USER", "postgres");
    env.put("CP_RETRY_INITIAL_MS", "200");
    env.put("CP_RETRY_MAX_MS", "1000");
    env.put("CP_LOCAL_MAX_ATTEMPTS", "20");
    env.put("CP_LLM_MAX_ATTEMPTS", "20");
    PlaneConfig cfg = PlaneConfig.fromEnv(env);
    try (PlaneRuntime rt = PlaneRuntime.open(cfg); TemporalConnection conn = TemporalConnection.open(cfg)) {
      conn.ensureSearchAttributes();
      try (PlaneWorker w = PlaneWorker.start(conn, rt, "e2e-pg-restart")) {
        ControlPlaneClient c = new ControlPlaneClient(conn.client(), cfg.worker().taskQueue(),
            rt.catalog().agentClasses(), 0);
        String sid = c.startSession("ADMIN");
        TurnResult hello = c.turn(sid, "hello");
        assertEquals(TurnOutcome.SUCCESS, hello.outcome());

        pg.close();
        CompletableFuture<TurnResult> tool = CompletableFuture.supplyAsync(
            () -> c.turn(sid, "what packages are installed?"));
        // Down longer than the pool waits for a connection (5 s): activities fail and Temporal retries them.
        Thread.sleep(8_000);
        assertTrue(!tool.isDone(), "the turn cannot finish while the ledger database is down");
        pg = start(port);
        TurnResult r = tool.get(120, TimeUnit.SECONDS);
        assertEquals(TurnOutcome.SUCCESS, r.outcome(), () -> r.toString());
        assertEquals(1, r.toolCalls().size());
        c.end(sid);
      }
      for (LedgerStream l : List.of(rt.ledgers().hot(), rt.ledgers().ho2("ADMIN"), rt.ledgers().ho1())) {
        assertTrue(l.verify().ok(), l.location() + ": " + l.verify().reason());
        List<String> keys = l.readAll().stream().map(LedgerEntry::idempotencyKey).filter(k -> k != null).toList();
        assertEquals(keys.size(), keys.stream().distinct().count(), "no key twice in " + l.location());
      }
      assertEquals(5, rt.ledgers().hot().byEventType("EXCHANGE").size(), "one EXCHANGE per round trip");
      assertEquals(1, rt.ledgers().ho1().byEventType("TOOL_CALL").size(), "the tool ran once");
    } finally {
      pg.close();
    }
  }

  private EmbeddedPostgres start(int port) throws java.io.IOException {
    return EmbeddedPostgres.builder().setDataDirectory(data.resolve("pg")).setCleanDataDirectory(false).setPort(port)
        .start();
  }
}
