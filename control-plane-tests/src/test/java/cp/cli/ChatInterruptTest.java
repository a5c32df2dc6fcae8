package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.SearchAttributeRegistrar;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 7: Ctrl-C in {@code cpctl chat} exited 130 without a word, and during a turn
 * dropped the turn silently. A real chat process gets a real SIGINT; it must say in one line what
 * happened to the session and the turn, exit 130, and leave SESSION_END in an intact HOT ledger.
 */
class ChatInterruptTest {
  /** What a JVM killed by SIGINT exits with (128 + 2), as a shell reports it. */
  static final int SIGINT_EXIT = 130;

  @TempDir Path home;
  @TempDir Path procs;

  private List<LedgerEntry> hot(String type) {
    try (Ledgers ledgers = Ledgers.open(home)) {
      assertTrue(ledgers.hot().verify().ok(), ledgers.hot().verify().reason());
      return ledgers.hot().byEventType(type);
    }
  }

  private static String interruptLine(CpctlProcesses.Cli chat) {
    List<String> lines = chat.stderr().lines().filter(l -> l.contains("Ctrl-C")).toList();
    assertEquals(1, lines.size(), "one line about the interrupt\n" + chat.describe());
    return lines.get(0);
  }

  /** A chat against {@code model} whose turn waits in its last LLM round (held by the fake provider). */
  private CpctlProcesses.Cli chatInItsLastRound(CpctlProcesses p, MockWebServer server, AnthropicTurnMock model)
      throws Exception {
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    var chat = p.startInteractive("chat", env, "chat");
    chat.type(AnthropicTurnMock.QUESTION + "\n");
    assertTrue(model.round2Held.await(CpctlProcesses.STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
        "the turn reached its last LLM round\n" + chat.describe() + "\n" + model.describe());
    return chat;
  }

  @Test
  void ctrlCAtThePrompt_endsTheSession_writesSessionEnd_andSaysSo() throws Exception {
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      var chat = p.startInteractive("chat", CliHarness.env(home), "chat");
      chat.type("hello\n");
      chat.awaitOutput("[success");
      chat.signal("INT");

      assertEquals(SIGINT_EXIT, chat.awaitExit(), chat.describe());
      String sid = hot("SESSION_START").get(0).sessionId();
      String line = interruptLine(chat);
      assertTrue(line.contains("session " + sid + " ended") && line.contains("SESSION_END written"), line);
      assertTrue(line.contains("1 turn(s)") && line.contains("no turn was running"), line);
      List<LedgerEntry> ends = hot("SESSION_END");
      assertEquals(1, ends.size(), chat.describe());
      assertEquals(sid, ends.get(0).sessionId());
      assertEquals(1, ends.get(0).meta("turns").asInt());
    }
  }

  @Test
  void ctrlCDuringATurn_endsTheSession_andSaysWhatBecameOfTheTurnAndWhereToSeeIt() throws Exception {
    AnthropicTurnMock model = AnthropicTurnMock.holdingRound2();
    try (MockWebServer server = new MockWebServer(); CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      var chat = chatInItsLastRound(p, server, model);
      chat.signal("INT");

      int code = chat.awaitExit();
      model.release();
      assertEquals(SIGINT_EXIT, code, chat.describe());
      String sid = hot("SESSION_START").get(0).sessionId();
      String line = interruptLine(chat);
      assertTrue(line.contains("during turn 1"), line);
      assertTrue(line.contains("unfinished") && line.contains("cpctl show " + sid), line);
      assertTrue(line.contains("session " + sid + " ended") && line.contains("SESSION_END written"), line);
      List<LedgerEntry> ends = hot("SESSION_END");
      assertEquals(1, ends.size(), chat.describe());
      LedgerEntry end = ends.get(0);
      assertEquals(sid, end.sessionId());
      assertEquals("interrupted", end.metaText("end_reason"));
      assertEquals(0, end.meta("turns").asInt(), "no turn completed");
      assertEquals(1, end.meta("interrupted_turn").asInt());
      List<LedgerEntry> exchanges = hot("EXCHANGE");
      assertEquals(2, exchanges.stream().filter(e -> "success".equals(e.metaText("outcome"))).count(),
          "what the turn did before Ctrl-C is on record (classify, round 1)\n" + exchanges);
      // The held round was sent: when its worker thread writes its failure before the process exits,
      // that attempt is on record too, as an error; never as a success.
      assertTrue(exchanges.size() <= 3, exchanges.toString());
      assertTrue(!chat.stdout().contains(AnthropicTurnMock.ANSWER) && !chat.stdout().contains("[success"),
          "no reply was printed for the stopped turn\n" + chat.describe());
    }
  }

  /** What a JVM stopped by SIGTERM exits with (128 + 15), as a shell reports it. */
  static final int SIGTERM_EXIT = 143;

  /**
   * A tester's report: SIGTERM to chat said "interrupted (Ctrl-C)" and SESSION_END's end_detail
   * named a Ctrl-C nobody pressed. A termination signal is named as one, at the prompt and during a
   * turn, in the line and in the ledger.
   */
  @Test
  void sigtermAtThePrompt_endsTheSession_namingSigterm_notCtrlC() throws Exception {
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      var chat = p.startInteractive("chat", CliHarness.env(home), "chat");
      chat.type("hello\n");
      chat.awaitOutput("[success");
      chat.signal("TERM");

      assertEquals(SIGTERM_EXIT, chat.awaitExit(), chat.describe());
      String sid = hot("SESSION_START").get(0).sessionId();
      List<String> lines = chat.stderr().lines().filter(l -> l.startsWith("cpctl: ")).toList();
      assertEquals(1, lines.size(), chat.describe());
      String line = lines.get(0);
      assertTrue(line.startsWith("cpctl: terminated (SIGTERM): session " + sid + " ended, SESSION_END written"), line);
      assertTrue(!chat.stderr().contains("Ctrl-C"), chat.describe());
      assertEquals(1, hot("SESSION_END").size(), chat.describe());
    }
  }

  @Test
  void sigtermDuringATurn_recordsSigtermAsTheEndDetail_notCtrlC() throws Exception {
    AnthropicTurnMock model = AnthropicTurnMock.holdingRound2();
    try (MockWebServer server = new MockWebServer(); CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      var chat = chatInItsLastRound(p, server, model);
      chat.signal("TERM");

      int code = chat.awaitExit();
      model.release();
      assertEquals(SIGTERM_EXIT, code, chat.describe());
      String sid = hot("SESSION_START").get(0).sessionId();
      List<String> lines = chat.stderr().lines().filter(l -> l.startsWith("cpctl: ")).toList();
      assertEquals(1, lines.size(), chat.describe());
      assertTrue(lines.get(0).startsWith("cpctl: terminated (SIGTERM) during turn 1: "), lines.get(0));
      assertTrue(!chat.stderr().contains("Ctrl-C"), chat.describe());
      LedgerEntry end = hot("SESSION_END").get(0);
      assertEquals(sid, end.sessionId());
      assertEquals("interrupted", end.metaText("end_reason"));
      assertEquals("SIGTERM to cpctl chat during turn 1", end.metaText("end_detail"), end.toString());
      assertTrue(!end.reason().contains("Ctrl-C"), end.reason());
    }
  }

  /**
   * Issue 20: the Ctrl-C handler ran on every exit, so a chat that stopped on an ordinary error said
   * "interrupted (Ctrl-C) … no SESSION_END was written". Here the shared service goes away during a
   * turn: chat exits 1 saying it lost the service, and nothing about a Ctrl-C nobody pressed.
   */
  @Test
  void anErrorExit_saysWhatHappened_andNothingAboutCtrlC() throws Exception {
    int port = CpctlProcesses.freePort();
    EmbeddedTemporal service = EmbeddedTemporal.onPort(port);
    boolean closed = false;
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      SearchAttributeRegistrar.ensure(service.operator(), PlaneConfig.DEFAULT_NAMESPACE);
      Map<String, String> env = CliHarness.env(home);
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_SERVICE_LOST_MS", "1000");
      // No worker: the turn waits, then the service goes away under it.
      var chat = p.startInteractive("chat", env, "chat");
      chat.type("hello\n");
      long until = System.nanoTime() + CpctlProcesses.STEP_TIMEOUT.toNanos();
      while (openWorkflows(service) == 0 && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      // The session started; its turn's Update is on its way and waits for a worker that never comes.
      Thread.sleep(1000);
      service.close();
      closed = true;

      assertEquals(1, chat.awaitExit(), chat.describe());
      assertTrue(chat.stderr().contains("lost the Temporal service at 127.0.0.1:" + port), chat.describe());
      assertTrue(!chat.stderr().contains("Ctrl-C") && !chat.stderr().contains("interrupted"), chat.describe());
      assertEquals(1, chat.stderr().lines().filter(l -> l.startsWith("cpctl: ")).count(),
          "one line: the error (ending the session failed for the same reason)\n" + chat.describe());
    } finally {
      if (!closed) {
        service.close();
      }
    }
  }

  private static int openWorkflows(EmbeddedTemporal service) {
    return service.service().blockingStub().listOpenWorkflowExecutions(ListOpenWorkflowExecutionsRequest.newBuilder()
        .setNamespace(PlaneConfig.DEFAULT_NAMESPACE).build()).getExecutionsCount();
  }
}
