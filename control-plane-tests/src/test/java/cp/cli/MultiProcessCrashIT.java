package cp.cli;

import static cp.cli.LedgerLines.ofType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import cp.faults.FaultPoints;
import cp.model.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash recovery across real processes, the way an operator runs the plane: {@code cpctl
 * dev-server}, {@code cpctl worker}s and a {@code cpctl turn} client, each its own JVM from
 * {@code target/control-plane.jar}, talking over loopback. The model is a MockWebServer in this
 * JVM speaking the Anthropic Messages API ({@link AnthropicTurnMock}).
 *
 * <p>Each test kills the worker with SIGKILL at one point of the same turn (classify, then
 * synthesize asking for list_packages in round 1 and answering in round 2): while an LLM call is
 * in flight, inside the tool call, after a ledger line is written but before it is acknowledged,
 * half-way through writing a ledger line, and inside the attention step. The fault points are
 * {@link FaultPoints}, switched on in the first worker only with {@code CP_FAULT_PAUSE}; the second
 * worker traces them ({@code CP_FAULT_PAUSE=none}) so the test can count the tool's runs. Then a
 * new worker process starts. The turn must finish for the waiting client; nothing that had
 * finished before the kill may run again (each finished LLM round is requested once, a recorded
 * tool call is not run again); no ledger line is written twice; every chain verifies. Each test
 * prints its recovery time (SIGKILL to the client's exit, including the new worker's start).
 */
class MultiProcessCrashIT {
  /** Short, so the dead worker's in-flight activity is noticed quickly (TEMPORAL-NOTES.md: ~2.7 s). */
  static final String HEARTBEAT_TIMEOUT_MS = "2000";
  /** The fault trace line of a tool about to run. */
  static final String TOOL_RUN = FaultPoints.MARKER + "at " + FaultPoints.TOOL_CALL;

  @TempDir static Path shared;
  private static CpctlProcesses devServerProcess;
  private static CpctlProcesses.Cli devServer;
  private static int port;

  @TempDir Path dir;
  private CpctlProcesses procs;
  private final MockWebServer server = new MockWebServer();
  private AnthropicTurnMock model;

  @BeforeAll
  static void startDevServer() throws Exception {
    port = CpctlProcesses.freePort();
    devServerProcess = new CpctlProcesses(shared);
    devServer = devServerProcess.start("dev-server", Map.of(), "dev-server", "--port", String.valueOf(port));
    devServer.awaitOutput("listening on");
  }

  @AfterAll
  static void stopDevServer() {
    if (devServerProcess != null) {
      devServerProcess.close();
    }
  }

  @AfterEach
  void cleanUp() {
    if (model != null) {
      model.release();
    }
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  /** The production jar has no fault injection: a worker started from it says so in one line and runs on. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void jarWorkerWithCpFaultPause_saysItHasNoFaultInjection_andRunsWithoutIt() throws Exception {
    procs = new CpctlProcesses(dir);
    Map<String, String> env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    env.put("CP_HOME", dir.resolve("home").toString());
    env.put("CP_TASK_QUEUE", "crash-jar-no-faults");
    env.put("CP_PROVIDER", "offline");
    env.put(FaultPoints.ENV, FaultPoints.TOOL_CALL);

    CpctlProcesses.Cli worker = procs.start("jar-worker", env, "worker");
    worker.awaitOutput("sticky off");

    assertEquals(List.of(FaultPoints.NOT_IN_THIS_BUILD), worker.stderr().lines().filter(l -> l.contains(FaultPoints.ENV))
        .toList(), worker::stderr);
    assertFalse(worker.stdout().contains(FaultPoints.MARKER), worker::stdout);
    worker.stop();
  }

  // ------------------------------------------------------------------ the kill points

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledDuringSynthesizeRound2_newWorkerProcessFinishesTheTurnWithoutRepeatingFinishedWork()
      throws Exception {
    Crash c = new Crash("llm-round", null, AnthropicTurnMock.holdingRound2()).run();

    assertTurnSucceeded(c);
    // The model: finished rounds were asked once; only the round in flight at the kill was asked again.
    assertEquals(Map.of("classify/round-1", 1, "synthesize/round-1", 1, "synthesize/round-2", 2), model.counts(),
        "requests per work order and round, after recovery");
    List<JsonNode> hot = c.ledger(LedgerLines.HOT);
    List<JsonNode> exchanges = ofType(hot, "EXCHANGE");
    // One EXCHANGE per answer a live worker received (4 requests, the one held at the kill was lost).
    assertEquals(3, exchanges.size(), "EXCHANGE entries");
    for (JsonNode e : exchanges) {
      assertEquals("success", e.path("metadata").path("outcome").asText(), e::toString);
      assertEquals(c.sid, e.path("metadata").path("session_id").asText(), e::toString);
    }
    assertEquals(3, exchanges.stream().map(e -> e.path("metadata").path("activity_id").asText()).distinct().count(),
        "one EXCHANGE per round activity");
    List<Integer> attempts = exchanges.stream().map(e -> e.path("metadata").path("attempt").asInt()).toList();
    assertEquals(List.of(1, 1, 2), attempts, "only round 2 was retried, and only once");
    assertEquals(1, c.toolRuns(), "list_packages ran once, before the kill");
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledInsideTheToolCall_theToolRunsOnceToCompletion_andNoLlmRoundIsAskedAgain() throws Exception {
    Crash c = new Crash("tool-call", FaultPoints.TOOL_CALL, AnthropicTurnMock.answering()).run();

    assertTurnSucceeded(c);
    assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(), "every LLM round had finished: none is asked again");
    assertEquals(1, c.worker1.countLines(TOOL_RUN), "worker 1 was stopped inside the tool call");
    assertEquals(1, c.worker2.countLines(TOOL_RUN), "the unfinished tool call runs once more, on worker 2");
    assertEquals(3, ofType(c.ledger(LedgerLines.HOT), "EXCHANGE").size(), "EXCHANGE entries");
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledAfterTheToolCallLineIsWrittenButNotAcknowledged_theFinishedToolIsNotRunAgain() throws Exception {
    Crash c = new Crash("tool-call-written", FaultPoints.of(FaultPoints.LEDGER_WRITTEN, "TOOL_CALL"),
        AnthropicTurnMock.answering()).run();

    assertTurnSucceeded(c);
    assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(), "no LLM round is asked again");
    assertEquals(1, c.worker1.countLines(TOOL_RUN), "the tool ran on worker 1 and its TOOL_CALL reached the disk");
    assertEquals(0, c.worker2.countLines(TOOL_RUN), "the retried activity found the TOOL_CALL and did not run the tool");
    JsonNode toolCall = whole(c.ledger(LedgerLines.HO1), "TOOL_CALL").get(0);
    assertEquals(toolCall.path("entry_id").asText(), c.result.path("tool_calls").path(0).path("entry_id").asText(),
        "the turn reports the TOOL_CALL worker 1 wrote");
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledMidWriteOfALedgerLine_theTornLineIsCutAndKept_andTheRoundIsAnsweredFromItsExchange()
      throws Exception {
    Crash c = new Crash("llm-call-torn", FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL"),
        AnthropicTurnMock.answering()).run();

    assertTurnSucceeded(c);
    assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(),
        "classify was answered before the torn write: the retry replays its EXCHANGE instead of asking again");
    List<JsonNode> llmCalls = whole(c.ledger(LedgerLines.HO1), "LLM_CALL");
    assertTrue(llmCalls.get(0).path("metadata").path("replayed").asBoolean(),
        "classify's LLM_CALL was rewritten from the recorded EXCHANGE: " + llmCalls.get(0));
    List<Path> torn;
    try (Stream<Path> files = Files.list(c.home.resolve("HO1/ledger"))) {
      torn = files.filter(p -> p.getFileName().toString().startsWith("worker.jsonl.torn-")).toList();
    }
    assertEquals(1, torn.size(), "the torn bytes are kept beside the ledger");
    String tornText = Files.readString(torn.get(0));
    assertTrue(tornText.contains("\"LLM_CALL\"") && !tornText.endsWith("\n"), "the kept bytes are the half line: "
        + tornText);
    assertEquals(1, c.worker2.countLines(TOOL_RUN), "the tool ran once, on worker 2");
    assertEquals(1, torn(c.ledger(LedgerLines.HO1), "LLM_CALL").size(), "what the torn line held is recorded");
  }

  /** Issue 20 §1: killed with half an EXCHANGE on disk, the answered call is asked again, and both are on record. */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledMidWriteOfAnExchange_theRepeatedCallIsPaidOnce_moreAndBothAreRecordedAndCounted() throws Exception {
    Crash c = new Crash("exchange-torn", FaultPoints.of(FaultPoints.LEDGER_TORN, "EXCHANGE"),
        AnthropicTurnMock.answering()).run();

    assertTurnSucceeded(c);
    assertEquals(Map.of("classify/round-1", 2, "synthesize/round-1", 1, "synthesize/round-2", 1), model.counts(),
        "classify's answer was lost with its line: asked again, once");
    long billed = model.counts().values().stream().mapToLong(n -> n * AnthropicTurnMock.TOKENS_PER_REPLY).sum();
    List<JsonNode> exchanges = ofType(c.ledger(LedgerLines.HOT), "EXCHANGE");
    assertEquals(4, exchanges.size(), "three answers used and the torn one recorded");
    assertEquals(1, torn(c.ledger(LedgerLines.HOT), "EXCHANGE").size());
    long recorded = exchanges.stream().mapToLong(e -> e.path("metadata").path("input_tokens").asLong()
        + e.path("metadata").path("output_tokens").asLong()).sum();
    assertEquals(billed, recorded, "every billed token is on record");
    assertEquals(billed, c.result.path("cost_summary").path("total_tokens").asLong(),
        "the turn (and so the session) counts what was billed: " + c.result.path("cost_summary"));
  }

  /** Issue 20 §1: killed with half a TOOL_CALL on disk, the tool runs again, and the first run is on record. */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledMidWriteOfAToolCall_theSecondRunOfTheToolIsVisible() throws Exception {
    Crash c = new Crash("tool-call-torn", FaultPoints.of(FaultPoints.LEDGER_TORN, "TOOL_CALL"),
        AnthropicTurnMock.answering()).run();

    assertTurnSucceeded(c);
    assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(), "no LLM round is asked again");
    assertEquals(2, c.toolRuns(), "the tool's record was lost with its line: it ran again");
    List<JsonNode> tornCalls = torn(c.ledger(LedgerLines.HO1), "TOOL_CALL");
    assertEquals(1, tornCalls.size(), "the first run is on record");
    assertEquals("list_packages", tornCalls.get(0).path("metadata").path("tool_id").asText(), tornCalls.get(0)::toString);
  }

  /** Entries of {@code type} recovered from a torn write. */
  private static List<JsonNode> torn(List<JsonNode> entries, String type) {
    return ofType(entries, type).stream().filter(e -> "TORN".equals(e.path("decision").asText())).toList();
  }

  /** Entries of {@code type} written whole (not recovered from a torn write). */
  private static List<JsonNode> whole(List<JsonNode> entries, String type) {
    return ofType(entries, type).stream().filter(e -> !"TORN".equals(e.path("decision").asText())).toList();
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledInsideAttention_theTurnCompletesWithOneAttentionRecord() throws Exception {
    Crash c = new Crash("attention", FaultPoints.ATTENTION, AnthropicTurnMock.answering()).run();

    assertTurnSucceeded(c);
    assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(), "classify finished before attention: not asked again");
    assertEquals(1, c.worker1.countLines(FaultPoints.MARKER + "at " + FaultPoints.ATTENTION));
    assertEquals(1, c.worker2.countLines(FaultPoints.MARKER + "at " + FaultPoints.ATTENTION),
        "attention, a local activity with nothing recorded, runs again on worker 2");
    assertEquals(1, c.worker2.countLines(TOOL_RUN), "the tool ran once, on worker 2");
  }

  // ------------------------------------------------------------------ one crash

  /** One turn, a SIGKILL of its worker at a point, a new worker, and what the plane holds afterwards. */
  private final class Crash {
    final String name;
    final String faultPoint;
    Path home;
    String sid;
    CpctlProcesses.Cli worker1;
    CpctlProcesses.Cli worker2;
    CpctlProcesses.Cli turn;
    JsonNode result;
    long recoveryMs;

    /** {@code faultPoint} null: the kill comes while the mock holds synthesize round 2. */
    Crash(String name, String faultPoint, AnthropicTurnMock mock) {
      this.name = name;
      this.faultPoint = faultPoint;
      model = mock;
    }

    Crash run() throws Exception {
      server.setDispatcher(model);
      server.start(InetAddress.getLoopbackAddress(), 0);
      // Workers start from the test classpath: only it has the CP_FAULT_PAUSE hook (cp.faults.EnvFaultHook).
      procs = CpctlProcesses.onClasspath(dir).describing(() -> model.describe() + "\n" + devServer.describe());
      home = dir.resolve("home");
      Map<String, String> env = new HashMap<>();
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_HOME", home.toString());
      env.put("CP_TASK_QUEUE", "crash-" + name);
      env.put("CP_PROVIDER", "anthropic");
      env.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
      env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
      env.put("CP_HEARTBEAT_TIMEOUT_MS", HEARTBEAT_TIMEOUT_MS);

      Map<String, String> env1 = new HashMap<>(env);
      env1.put(FaultPoints.ENV, faultPoint != null ? faultPoint : FaultPoints.NONE);
      worker1 = procs.start("worker-1", env1, "worker");
      worker1.awaitOutput("sticky off");

      CliHarness.Run start = CliHarness.run(env, "session", "start");
      assertEquals(Cpctl.OK, start.code(), start::describe);
      sid = start.out().trim();
      assertTrue(sid.matches("SES-[0-9a-f]{8}"), start::describe);

      turn = procs.start("turn", env, "turn", "--session", sid, "--json", AnthropicTurnMock.QUESTION);
      if (faultPoint == null) {
        if (!model.round2Held.await(CpctlProcesses.STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
          fail("synthesize round 2 never reached the model\n" + procs.describeAll());
        }
        assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(), "requests before the crash");
      } else {
        worker1.awaitOutput(FaultPoints.MARKER + "paused at " + faultPoint);
      }

      worker1.kill();
      long killedAt = System.nanoTime();
      Map<String, String> env2 = new HashMap<>(env);
      env2.put(FaultPoints.ENV, FaultPoints.NONE);
      worker2 = procs.start("worker-2", env2, "worker");
      model.release();
      worker2.awaitOutput("sticky off");
      long workerReadyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);

      int turnExit = turn.awaitExit();
      recoveryMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
      System.out.printf("MultiProcessCrashIT: kill point %-18s recovery (SIGKILL of worker 1 -> turn client done)"
          + " = %d ms, of which the new worker's start = %d ms%n", name, recoveryMs, workerReadyMs);
      assertEquals(0, turnExit, () -> "the turn client must finish after the crash\n" + procs.describeAll());
      result = Json.parse(turn.stdout());

      // Stop the new worker cleanly, then read what the ledgers hold.
      worker2.stop();
      return this;
    }

    List<JsonNode> ledger(String relative) throws IOException {
      return LedgerLines.read(home.resolve(relative));
    }

    /** How often list_packages started, over both workers. */
    long toolRuns() {
      return worker1.countLines(TOOL_RUN) + worker2.countLines(TOOL_RUN);
    }
  }

  /** What every kill point must leave: a whole, successful turn, each event once, every chain intact. */
  private void assertTurnSucceeded(Crash c) throws IOException {
    JsonNode r = c.result;
    assertEquals("success", r.path("outcome").asText(), c.turn::describe);
    assertEquals(c.sid, r.path("session_id").asText());
    assertEquals(1, r.path("turn").asInt());
    assertEquals(AnthropicTurnMock.ANSWER, r.path("response").asText(), c.turn::describe);
    assertEquals(1, r.path("tool_calls").size(), "one tool call in the result");
    assertEquals("list_packages", r.path("tool_calls").path(0).path("tool_name").asText(), c.turn::describe);
    assertEquals(3, r.path("cost_summary").path("llm_calls").asInt(), "classify + two synthesize rounds");
    assertEquals(2, r.path("wo_chain_summary").size());
    for (JsonNode wo : r.path("wo_chain_summary")) {
      assertEquals("completed", wo.path("state").asText(), c.turn::describe);
    }
    assertEquals("", c.turn.stderr(), c.turn::describe);
    assertEquals(List.of(), model.problems, "requests the model did not expect");

    CliHarness.Run verify = CliHarness.run(Map.of("CP_HOME", c.home.toString()), "ledger", "verify");
    assertEquals(Cpctl.OK, verify.code(), verify::describe);
    for (String tier : List.of("OK    hot", "OK    ho2/ADMIN", "OK    ho1")) {
      assertTrue(verify.out().contains(tier), verify::describe);
    }

    List<JsonNode> hot = c.ledger(LedgerLines.HOT);
    List<JsonNode> ho1 = c.ledger(LedgerLines.HO1);
    List<JsonNode> ho2 = c.ledger(LedgerLines.HO2_ADMIN);
    for (var ledger : Map.of("HOT", hot, "HO1", ho1, "HO2/ADMIN", ho2).entrySet()) {
      LedgerLines.assertNoDuplicates(ledger.getKey(), ledger.getValue());
    }
    assertEquals(1, ofType(hot, "SESSION_START").size(), "SESSION_START entries");
    assertEquals(0, ofType(hot, "DEGRADATION").size(), "the turn must not degrade");
    assertEquals(1, whole(ho1, "TOOL_CALL").size(), "TOOL_CALL entries");
    assertEquals(3, whole(ho1, "LLM_CALL").size(), "LLM_CALL entries");
    assertEquals(2, ofType(ho1, "WO_EXECUTING").size(), "WO_EXECUTING entries");
    assertEquals(2, ofType(ho1, "WO_COMPLETED").size(), "WO_COMPLETED entries");
    assertEquals(0, ofType(ho1, "WO_FAILED").size(), "WO_FAILED entries");
    assertEquals(2, ofType(ho2, "WO_PLANNED").size(), "WO_PLANNED entries");
    assertEquals(1, ofType(ho2, "ATTENTION_ASSEMBLED").size(), "ATTENTION_ASSEMBLED entries");
    assertEquals(1, ofType(ho2, "WO_CHAIN_COMPLETE").size(), "WO_CHAIN_COMPLETE entries");
  }
}
