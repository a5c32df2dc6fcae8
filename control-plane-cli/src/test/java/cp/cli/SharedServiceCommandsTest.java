package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import cp.worker.TemporalConnection;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client commands against a shared service, all in this JVM: the dev server's embedded
 * service on a port and a worker (what {@code cpctl dev-server} and {@code cpctl worker} run),
 * with {@code TEMPORAL_ADDRESS} pointing at it.
 */
class SharedServiceCommandsTest {
  @TempDir static Path home;

  private static SharedService service;
  private static TemporalConnection workerConnection;
  private static Map<String, String> env;

  @BeforeAll
  static void startServiceAndWorker() throws Exception {
    service = SharedService.start(home);
    workerConnection = service.workerConnection;
    env = service.env();
  }

  @AfterAll
  static void stop() {
    if (service != null) {
      service.close();
    }
  }

  /** A loaded machine's worker writes a new session's SESSION_START well within this. */
  static final java.time.Duration SESSION_START_WRITTEN_WITHIN = java.time.Duration.ofSeconds(15);
  static final java.time.Duration SESSION_LIST_POLL = java.time.Duration.ofMillis(200);

  private static void sleepQuietly(java.time.Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String startSession() {
    var r = run(env, "session", "start");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    String sid = r.out().trim();
    assertTrue(sid.matches("SES-[0-9a-f]{8}"), r::describe);
    return sid;
  }

  @Test
  void theDevServerIsDetectedAsATestServer() {
    assertTrue(workerConnection.isTestServer(), "sticky execution must be off against it");
  }

  @Test
  void sessionStartTurnAndEnd_runAScriptedSession() {
    String sid = startSession();
    var turn = run(env, "turn", "--session", sid, "hello", "there");
    assertEquals(Cpctl.OK, turn.code(), turn::describe);
    assertTrue(turn.out().lines().anyMatch(l -> l.startsWith("  [success · ")), turn::describe);
    var end = run(env, "session", "end", sid);
    assertEquals(Cpctl.OK, end.code(), end::describe);
    assertTrue(end.out().startsWith(sid + " ended: 1 turn(s)"), end::describe);
  }

  /** Issue 24: the streamed reply and the --no-stream one print the same: the reply, then the footer. */
  @Test
  void turnStreamed_andTurnWithNoStream_printTheSameReply() {
    var streamed = run(env, "turn", "--session", startSession(), "--stream", "Tell me how a durable workflow recovers after a crash");
    var whole = run(env, "turn", "--session", startSession(), "--no-stream", "Tell me how a durable workflow recovers after a crash");
    assertEquals(Cpctl.OK, streamed.code(), streamed::describe);
    assertEquals(Cpctl.OK, whole.code(), whole::describe);
    var a = streamed.out().lines().toList();
    var b = whole.out().lines().toList();
    assertTrue(a.get(a.size() - 1).startsWith("  [success · ") && b.get(b.size() - 1).startsWith("  [success · "),
        streamed::describe);
    assertTrue(a.size() > 2, streamed::describe);
    assertEquals(b.subList(0, b.size() - 1), a.subList(0, a.size() - 1), "the same reply, streamed or whole");
  }

  @Test
  void turnAsJson_printsTheWholeTurnResult() {
    String sid = startSession();
    var r = run(env, "turn", "--session", sid, "--json", "what packages are installed?");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    JsonNode result = Json.parse(r.out());
    assertEquals("success", result.path("outcome").asText(), r::describe);
    assertEquals(sid, result.path("session_id").asText());
    assertEquals(1, result.path("tool_calls").size(), r::describe);
    assertEquals(2, result.path("wo_chain_summary").size(), r::describe);
  }

  @Test
  void turnOnAnUnknownSession_isRefusedInOneLine() {
    var r = run(env, "turn", "--session", "SES-deadbeef", "hello");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("SES-deadbeef") && r.err().contains("not found"), r::describe);
  }

  @Test
  void turnOnAMalformedSessionId_isRefusedInOneLine() {
    var r = run(env, "turn", "--session", "bogus", "hello");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("SES-"), r::describe);
  }

  @Test
  void turnOnAnEndedSession_isRefusedInOneLine() {
    String sid = startSession();
    assertEquals(Cpctl.OK, run(env, "session", "end", sid).code());
    var r = run(env, "turn", "--session", sid, "hello");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    // Issue 11 item 3: say that the session ended, when and why, not "not found … restarted".
    assertTrue(r.err().contains("session " + sid + " has ended (end at ") && r.err().contains(": ended by its user)"),
        r::describe);
    // Issue 12: the client names no command; cpctl adds its own hint.
    assertTrue(r.err().contains("'cpctl chat' or 'cpctl session start' starts a new one"), r::describe);
    assertTrue(!r.err().contains("not found") && !r.err().contains("restarted"), r::describe);
    var again = run(env, "session", "end", sid);
    assertOneLineError(again, Cpctl.BAD_INPUT);
    assertTrue(again.err().contains(sid + " has ended (end at "), again::describe);
  }

  @Test
  void sessionStartWithAnUnknownAgent_isRefusedInOneLine() {
    var r = run(env, "session", "start", "--agent", "NOPE");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("ADMIN, RESIDENT"), r::describe);
  }

  @Test
  void chatContinuingASession_sendsItsTurnsThereAndEndsIt() {
    String sid = startSession();
    assertEquals(Cpctl.OK, run(env, "turn", "--session", sid, "hello").code());
    var r = runWithInput(env, "hello again\n", "chat", "--session", sid);
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("Session " + sid + " ended: 2 turn(s)"), r::describe);
  }

  @Test
  void sessionsAgainstTheDevServer_fallsBackToTheLedger() {
    String sid = startSession();
    // `session start` returns once the service has the workflow; its worker writes SESSION_START
    // (what the ledger fallback reads) moments later, so the listing may need a few looks.
    long deadline = System.nanoTime() + SESSION_START_WRITTEN_WITHIN.toNanos();
    var r = run(env, "sessions");
    while (r.code() == Cpctl.OK && r.out().lines().noneMatch(l -> l.startsWith(sid + " "))
        && System.nanoTime() < deadline) {
      sleepQuietly(SESSION_LIST_POLL);
      r = run(env, "sessions");
    }
    assertEquals(Cpctl.OK, r.code(), r::describe);
    var listed = r;
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith(sid + " ") && l.contains("ADMIN")), listed::describe);
  }

  @Test
  void replayOfALiveSession_replaysItsHistoriesDeterministically() {
    String sid = startSession();
    assertEquals(Cpctl.OK, run(env, "turn", "--session", sid, "hello").code());
    var r = run(env, "replay", "--session", sid);
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains(sid + " ") && r.out().contains(sid + "/turn-0001"), r::describe);
    assertEquals(2, r.out().lines().filter(l -> l.startsWith("OK ") && l.endsWith("deterministic")).count(),
        r::describe);
  }

  @Test
  void replayOfAnUnknownSession_isRefusedInOneLine() {
    var r = run(env, "replay", "--session", "SES-deadbeef");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("SES-deadbeef"), r::describe);
  }
}
