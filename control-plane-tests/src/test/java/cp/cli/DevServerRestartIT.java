package cp.cli;

import static cp.cli.LedgerLines.ofType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded Temporal service ({@code cpctl dev-server}, in memory) killed and started again on
 * the same port under a running worker and a client waiting for a turn, all separate JVMs. The
 * restarted service knows nothing of the session. The worker must say in one line that it lost
 * the service and in one that it is back, and keep serving; the waiting client must exit with
 * code 1 and one line that says the session vanished because the service lost its state, in
 * bounded time; a later turn on that session is refused in one line; the ledgers stay intact and
 * verify. With the service gone for good, the client gives up after {@code CP_SERVICE_LOST_MS}
 * with one line, and the worker rides the outage out and still stops cleanly.
 */
class DevServerRestartIT {
  /** From the restart until the waiting client must have given up (its watch looks every 2 s). */
  static final Duration CLIENT_NOTICES_WITHIN = Duration.ofSeconds(20);
  /** The waiting client's patience with an unreachable service in the gone-for-good test. */
  static final Duration SERVICE_LOST_AFTER = Duration.ofSeconds(4);

  @TempDir Path dir;
  private final MockWebServer server = new MockWebServer();
  private final AnthropicTurnMock model = AnthropicTurnMock.holdingRound2();
  private CpctlProcesses procs;

  @AfterEach
  void cleanUp() {
    model.release();
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  /** A dev-server, a worker and a client waiting on a turn whose synthesize round 2 the model holds. */
  private final class Plane {
    final int port;
    final Path home;
    final Map<String, String> env = new HashMap<>();
    final CpctlProcesses.Cli dev1;
    final CpctlProcesses.Cli worker;
    final String sid;
    final CpctlProcesses.Cli turn;

    Plane(Map<String, String> extra) throws Exception {
      server.setDispatcher(model);
      server.start(InetAddress.getLoopbackAddress(), 0);
      procs = new CpctlProcesses(dir).describing(model::describe);
      port = CpctlProcesses.freePort();
      home = dir.resolve("home");
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_HOME", home.toString());
      env.put("CP_PROVIDER", "anthropic");
      env.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
      env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
      env.put("CP_HEARTBEAT_TIMEOUT_MS", "2000");
      env.putAll(extra);
      dev1 = procs.start("dev-server-1", Map.of(), "dev-server", "--port", String.valueOf(port));
      dev1.awaitOutput("listening on");
      worker = procs.start("worker", env, "worker");
      worker.awaitOutput("sticky off");
      sid = startSession(env);
      turn = procs.start("turn", env, "turn", "--session", sid, AnthropicTurnMock.QUESTION);
      if (!model.round2Held.await(CpctlProcesses.STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        fail("synthesize round 2 never reached the model\n" + procs.describeAll());
      }
    }

    /** Kills the service and waits for the worker's one line about it; returns when that came, in ms. */
    long killService() throws Exception {
      dev1.kill();
      long killedAt = System.nanoTime();
      worker.awaitStderr("lost the Temporal service at 127.0.0.1:" + port);
      return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
    }

    /** The one line the client printed, checked to be a plain message. */
    String clientLine() {
      List<String> said = turn.stderr().lines().filter(l -> !l.isBlank()).toList();
      assertEquals(1, said.size(), "one line from the client\n" + turn.describe());
      assertFalse(turn.stderr().contains("Exception") || turn.stderr().contains("\tat "), turn::describe);
      assertEquals("", turn.stdout(), turn::describe);
      return said.get(0);
    }

    void assertLedgersIntact() throws Exception {
      CliHarness.Run verify = CliHarness.run(Map.of("CP_HOME", home.toString()), "ledger", "verify");
      assertEquals(Cpctl.OK, verify.code(), verify::describe);
      for (String ledger : List.of(LedgerLines.HOT, LedgerLines.HO1, LedgerLines.HO2_ADMIN)) {
        LedgerLines.assertNoDuplicates(ledger, LedgerLines.read(home.resolve(ledger)));
      }
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void devServerRestartedUnderARunningTurn_workerAndClientSayItInOneLine_andTheLedgersStayIntact() throws Exception {
    Plane p = new Plane(Map.of());
    long workerNoticedMs = p.killService();

    // A new, empty service on the same port; the held LLM call now finishes on the worker.
    CpctlProcesses.Cli dev2 = procs.start("dev-server-2", Map.of(), "dev-server", "--port", String.valueOf(p.port));
    dev2.awaitOutput("listening on");
    long restartedAt = System.nanoTime();
    model.release();

    int turnExit = p.turn.awaitExit(CLIENT_NOTICES_WITHIN);
    long clientMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAt);
    p.worker.awaitOutput("answers again");
    System.out.printf("DevServerRestartIT: restart: the worker reported the loss %d ms after the kill; the waiting"
        + " client exited %d ms after the restart%n", workerNoticedMs, clientMs);
    System.out.println("DevServerRestartIT: client stderr: " + p.turn.stderr().strip());
    System.out.println("DevServerRestartIT: worker stderr: " + p.worker.stderr().strip());
    System.out.println("DevServerRestartIT: worker stdout: " + p.worker.stdout().strip());

    assertEquals(Cpctl.FAILED, turnExit, p.turn::describe);
    String line = p.clientLine();
    assertTrue(line.contains("session " + p.sid + " vanished") && line.contains("restarted")
        && line.contains("cpctl show " + p.sid), p.turn::describe);
    assertEquals(1, p.worker.stderr().lines().filter(l -> !l.isBlank()).count(), "one line from the worker\n"
        + p.worker.describe());
    assertTrue(p.worker.process.isAlive(), "the worker keeps running");

    // A later turn on the lost session is refused in one line; a new session works on the same worker.
    CliHarness.Run again = CliHarness.run(p.env, "turn", "--session", p.sid, "hello");
    CliHarness.assertOneLineError(again, Cpctl.BAD_INPUT);
    assertTrue(again.err().contains("not found or already ended") && again.err().contains("restarted service"),
        again::describe);
    String fresh = startSession(p.env);
    CliHarness.Run freshTurn = CliHarness.run(p.env, "turn", "--session", fresh, AnthropicTurnMock.QUESTION);
    assertEquals(Cpctl.OK, freshTurn.code(), freshTurn::describe);
    assertTrue(freshTurn.out().contains(AnthropicTurnMock.ANSWER), freshTurn::describe);

    p.worker.stop();
    p.assertLedgersIntact();
    List<JsonNode> hot = LedgerLines.read(p.home.resolve(LedgerLines.HOT));
    assertEquals(2, ofType(hot, "SESSION_START").size(), "both sessions started on the record");
    long lostExchanges = ofType(hot, "EXCHANGE").stream()
        .filter(e -> p.sid.equals(e.path("metadata").path("session_id").asText())).count();
    assertEquals(3, lostExchanges, "the lost session's three LLM calls, the last finished after the restart, are"
        + " all on the record");
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void devServerGoneForGood_theWaitingClientGivesUpWithinItsBound_andTheWorkerStopsCleanly() throws Exception {
    Plane p = new Plane(Map.of("CP_SERVICE_LOST_MS", String.valueOf(SERVICE_LOST_AFTER.toMillis())));
    long workerNoticedMs = p.killService();
    long killedAt = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(workerNoticedMs);
    model.release();

    int turnExit = p.turn.awaitExit(CLIENT_NOTICES_WITHIN);
    long clientMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
    System.out.printf("DevServerRestartIT: gone for good: the waiting client exited %d ms after the kill"
        + " (CP_SERVICE_LOST_MS=%d)%n", clientMs, SERVICE_LOST_AFTER.toMillis());
    System.out.println("DevServerRestartIT: client stderr: " + p.turn.stderr().strip());

    assertEquals(Cpctl.FAILED, turnExit, p.turn::describe);
    String line = p.clientLine();
    assertTrue(line.startsWith("cpctl: lost the Temporal service at 127.0.0.1:" + p.port + " while waiting for a turn on "
        + p.sid) && line.contains("cpctl show " + p.sid), p.turn::describe);
    assertTrue(p.worker.process.isAlive(), "the worker rides the outage out");
    p.worker.stop();
    p.assertLedgersIntact();
  }

  private static String startSession(Map<String, String> env) {
    CliHarness.Run start = CliHarness.run(env, "session", "start");
    assertEquals(Cpctl.OK, start.code(), start::describe);
    String sid = start.out().trim();
    assertTrue(sid.matches("SES-[0-9a-f]{8}"), start::describe);
    return sid;
  }
}
