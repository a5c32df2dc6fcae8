package cp.cli;

import static cp.cli.LedgerLines.ofType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.CatalogFixture;
import cp.faults.FaultPoints;
import cp.model.Json;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 across real processes: {@code cpctl dev-server}, {@code cpctl worker}s, {@code cpctl
 * turn}, {@code cpctl approvals} and {@code cpctl approve}, each its own JVM, and a MockWebServer
 * speaking the Anthropic Messages API whose model asks for {@code write_file HO2/notes.md} and
 * then answers. The turn waits for a person: granted after the client's Ctrl-C and the worker's
 * SIGKILL during the wait (the decision sent while no worker runs, applied when a new one starts;
 * that worker killed again right after the TOOL_CALL reached the disk, and the next one does not
 * write again), denied while a piped chat waits, and left to its 2 s approval timeout.
 */
class ApprovalIT {
  static final String HEARTBEAT_TIMEOUT_MS = "2000";
  static final String QUESTION = "please write my notes";
  static final String PATH = "HO2/notes.md";
  static final String CONTENT = "# Notes\nfirst line\nsecond line\n";
  static final String ANSWER = "Done: I asked to write your notes.";
  /** Who {@code cpctl approve} says decided when it is given no {@code --by}: the OS user. */
  static final String APPROVER = System.getProperty("user.name");

  @TempDir static Path shared;
  private static CpctlProcesses devServerProcess;
  private static CpctlProcesses.Cli devServer;
  private static int port;

  @TempDir Path dir;
  private CpctlProcesses procs;
  private final MockWebServer server = new MockWebServer();
  private final WriteModel model = new WriteModel();
  private Map<String, String> env;
  private Path home;

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
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  private void plane(String queue, Path resources) throws Exception {
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    // Workers, turns and approvals from the test classpath: fault injection (CP_FAULT_PAUSE) exists only there.
    procs = CpctlProcesses.onClasspath(dir).describing(() -> "model tool results: " + model.toolResults + "\n"
        + devServer.describe());
    home = dir.resolve("home");
    env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    env.put("CP_HOME", home.toString());
    env.put("CP_TASK_QUEUE", queue);
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    env.put("CP_HEARTBEAT_TIMEOUT_MS", HEARTBEAT_TIMEOUT_MS);
    if (resources != null) {
      env.put("CP_RESOURCES_DIR", resources.toString());
    }
  }

  private CpctlProcesses.Cli worker(String name) throws Exception {
    return worker(name, null);
  }

  /** A worker; {@code faultPause} set: {@code CP_FAULT_PAUSE} for it (see FaultPoints). */
  private CpctlProcesses.Cli worker(String name, String faultPause) throws Exception {
    Map<String, String> e = new HashMap<>(env);
    if (faultPause != null) {
      e.put(FaultPoints.ENV, faultPause);
    }
    CpctlProcesses.Cli w = procs.start(name, e, "worker");
    w.awaitOutput("sticky off");
    return w;
  }

  private String startSession() {
    CliHarness.Run start = CliHarness.run(env, "session", "start");
    assertEquals(Cpctl.OK, start.code(), start::describe);
    return start.out().trim();
  }

  /** Polls {@code cpctl approvals SES --json} until the turn's call waits; returns it. */
  private JsonNode awaitPending(String sid) throws InterruptedException {
    long until = System.nanoTime() + CpctlProcesses.STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < until) {
      CliHarness.Run r = CliHarness.run(env, "approvals", sid, "--json");
      assertEquals(Cpctl.OK, r.code(), r::describe);
      JsonNode list = Json.parse(r.out());
      if (list.size() > 0) {
        return list.get(0);
      }
      Thread.sleep(200);
    }
    fail("no approval became pending\n" + procs.describeAll());
    return null;
  }

  /** Polls {@code cpctl show SES --json} until turn 1 has closed its chain; asserts how. */
  private void awaitTurnOutcome(String sid, String outcome) throws InterruptedException {
    long until = System.nanoTime() + CpctlProcesses.STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < until) {
      CliHarness.Run r = CliHarness.run(Map.of("CP_HOME", home.toString()), "show", sid, "--json");
      if (r.code() == Cpctl.OK) {
        JsonNode turns = Json.parse(r.out()).path("turns");
        // "unknown" until WO_CHAIN_COMPLETE is on record (SessionHistory).
        if (turns.size() > 0 && !turns.get(0).path("outcome").asText("unknown").equals("unknown")) {
          assertEquals(outcome, turns.get(0).path("outcome").asText(), r::describe);
          return;
        }
      }
      Thread.sleep(200);
    }
    fail("turn 1 of " + sid + " did not finish\n" + procs.describeAll());
  }

  private JsonNode turnResult(CpctlProcesses.Cli turn) throws InterruptedException {
    assertEquals(0, turn.awaitExit(), () -> "the turn client must finish\n" + procs.describeAll());
    return Json.parse(turn.stdout());
  }

  /** What every case leaves: one TOOL_CALL, one request and one decision on record, chains intact. */
  private List<JsonNode> assertRecorded(String sid, String decision, String toolStatus) throws Exception {
    List<JsonNode> ho1 = LedgerLines.read(home.resolve(LedgerLines.HO1));
    LedgerLines.assertNoDuplicates("HO1", ho1);
    List<JsonNode> calls = ofType(ho1, "TOOL_CALL");
    assertEquals(1, calls.size(), "TOOL_CALL written once");
    assertEquals(toolStatus, calls.get(0).path("metadata").path("status").asText());
    assertEquals(1, ofType(ho1, "APPROVAL_REQUESTED").size());
    List<JsonNode> decided = ofType(ho1, "APPROVAL_DECIDED");
    assertEquals(1, decided.size());
    assertEquals(decision, decided.get(0).path("metadata").path("decision").asText());
    assertEquals(sid, decided.get(0).path("metadata").path("session_id").asText());
    CliHarness.Run verify = CliHarness.run(Map.of("CP_HOME", home.toString()), "ledger", "verify");
    assertEquals(Cpctl.OK, verify.code(), verify::describe);
    CliHarness.Run show = CliHarness.run(Map.of("CP_HOME", home.toString()), "show", sid);
    assertEquals(Cpctl.OK, show.code(), show::describe);
    assertTrue(show.out().contains("approvals:") && show.out().contains("write_file  " + decision), show::describe);
    assertEquals(1, model.toolResults.size(), "the model saw one tool result: " + model.toolResults);
    assertEquals(List.of(), model.problems);
    return decided;
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void grantedAfterTheClientsCtrlCAndTheWorkersKill_theDecisionSentWithNoWorkerAppliesWhenOneStarts()
      throws Exception {
    plane("approval-grant", null);
    CpctlProcesses.Cli worker1 = worker("worker-1");
    String sid = startSession();
    CpctlProcesses.Cli turn = procs.start("turn", env, "turn", "--session", sid, "--json", QUESTION);

    JsonNode pending = awaitPending(sid);
    String id = pending.path("approval_id").asText();
    assertEquals("write_file", pending.path("tool").asText());
    assertTrue(pending.path("summary").asText().startsWith(PATH + " (31 bytes, 3 lines)"), pending::toString);
    CliHarness.Run all = CliHarness.run(env, "approvals");
    assertTrue(all.out().contains(id) && all.out().contains("cpctl approve " + sid + " " + id), all::describe);
    turn.awaitStderr("waiting for approval " + id);
    // Ctrl-C on the waiting client: the approval lives in the session, not in the client.
    turn.signal("INT");
    turn.awaitExit();
    assertEquals(id, awaitPending(sid).path("approval_id").asText(), "still pending after the client's Ctrl-C");

    worker1.kill();
    CpctlProcesses.Cli approve = procs.start("approve", env, "approve", sid, id, "--reason", "notes are fine");
    approve.awaitStderr("no worker has taken the decision yet");
    assertFalse(Files.exists(home.resolve(PATH)), "nothing written before the decision");

    // Worker 2 takes the decision and stops right after the tool's TOOL_CALL line reached the disk.
    CpctlProcesses.Cli worker2 = worker("worker-2", FaultPoints.of(FaultPoints.LEDGER_WRITTEN, "TOOL_CALL"));
    assertEquals(Cpctl.OK, approve.awaitExit(), approve::describe);
    assertTrue(approve.stdout().contains("granted by " + APPROVER), approve::describe);
    worker2.awaitOutput(FaultPoints.MARKER + "paused at " + FaultPoints.of(FaultPoints.LEDGER_WRITTEN, "TOOL_CALL"));
    assertEquals(CONTENT, Files.readString(home.resolve(PATH)), "written before the kill");
    worker2.kill();
    // Worker 3 retries the tool call: its TOOL_CALL is on record, so write_file does not run again.
    CpctlProcesses.Cli worker3 = worker("worker-3", FaultPoints.NONE);
    awaitTurnOutcome(sid, "success");
    assertEquals(0, worker3.countLines(FaultPoints.MARKER + "at " + FaultPoints.TOOL_CALL),
        "the retried tool call found its TOOL_CALL and did not write again\n" + worker3.describe());

    assertEquals(CONTENT, Files.readString(home.resolve(PATH)));
    List<JsonNode> decided = assertRecorded(sid, "granted", "ok");
    assertEquals(APPROVER, decided.get(0).path("metadata").path("decided_by").asText());
    assertEquals("notes are fine", decided.get(0).path("metadata").path("reason").asText());
    assertTrue(model.toolResults.get(0).contains("created '" + PATH + "'"), model.toolResults::toString);

    CliHarness.Run again = CliHarness.run(env, "approve", sid, id, "--deny", "--by", "someone-else");
    assertEquals(Cpctl.BAD_INPUT, again.code(), again::describe);
    assertTrue(again.err().contains("already decided: granted by " + APPROVER), again::describe);
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void deniedWhileAPipedChatWaits_nothingIsWritten_andTheModelIsToldWhoDeniedItAndWhy() throws Exception {
    plane("approval-deny", null);
    worker("worker");
    String sid = startSession();
    // cpctl chat with piped input: it never reads a decision from the pipe; it says how to decide.
    CpctlProcesses.Cli chat = procs.startInteractive("chat", env, "chat", "--session", sid);
    chat.type(QUESTION + "\n");
    String id = awaitPending(sid).path("approval_id").asText();
    chat.awaitStderr("waiting for approval " + id);
    assertTrue(chat.stderr().contains("decide with 'cpctl approve " + sid + " " + id + "'"), chat::describe);

    CliHarness.Run deny = CliHarness.run(env, "approve", sid, id, "--deny", "--reason", "not in HO2", "--by", "ops");

    assertEquals(Cpctl.OK, deny.code(), deny::describe);
    assertTrue(deny.out().contains("denied by ops"), deny::describe);
    chat.awaitOutput(ANSWER);
    assertFalse(Files.exists(home.resolve(PATH)), "a denied call writes nothing");
    assertRecorded(sid, "denied", "refused");
    assertTrue(model.toolResults.get(0).contains("was denied by ops (reason: not in HO2)"),
        model.toolResults::toString);
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void nobodyDecidesWithinTwoSeconds_theCallTimesOut_nothingIsWritten_andTheModelIsTold() throws Exception {
    Path resources = dir.resolve("resources");
    CatalogFixture.copyOfShipped(resources).edit("agents/admin.json", a -> {
      for (JsonNode t : (ArrayNode) a.get("tools")) {
        if (t.path("tool_id").asText().equals("write_file")) {
          ((ObjectNode) t).put("approval_timeout_seconds", 2);
        }
      }
    });
    plane("approval-timeout", resources);
    worker("worker");
    String sid = startSession();
    long t0 = System.nanoTime();
    CpctlProcesses.Cli turn = procs.start("turn", env, "turn", "--session", sid, "--json", QUESTION);

    JsonNode r = turnResult(turn);

    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) >= 2_000);
    assertEquals("success", r.path("outcome").asText(), turn::describe);
    assertFalse(Files.exists(home.resolve(PATH)));
    List<JsonNode> decided = assertRecorded(sid, "timed_out", "refused");
    assertEquals("system", decided.get(0).path("metadata").path("decided_by").asText());
    assertTrue(model.toolResults.get(0).contains("timed out"), model.toolResults::toString);
  }

  /**
   * The Anthropic Messages API for one ADMIN turn: classify answers; synthesize asks for
   * write_file in round 1 and, given its tool_result, answers in round 2. Keeps each tool result.
   */
  static final class WriteModel extends Dispatcher {
    final List<String> toolResults = new CopyOnWriteArrayList<>();
    final List<String> problems = new CopyOnWriteArrayList<>();
    final Map<String, Integer> counts = new ConcurrentHashMap<>();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      JsonNode body = Json.parse(request.getBody() == null ? "" : request.getBody().utf8());
      String system = body.path("system").asText("");
      String step = system.contains("## This step: classify") ? "classify"
          : system.contains("## This step: write the reply") ? "synthesize" : "unknown";
      JsonNode messages = body.path("messages");
      JsonNode last = messages.path(messages.size() - 1);
      JsonNode block = last.path("content").path(0);
      counts.merge(step, 1, Integer::sum);
      if (step.equals("classify")) {
        return message(text("{\"speech_act\":\"request\",\"ambiguity\":\"low\",\"intent\":\"write_notes\","
            + "\"needs_tools\":true}"), "end_turn");
      }
      if (step.equals("synthesize") && "tool_result".equals(block.path("type").asText())) {
        JsonNode content = block.path("content");
        toolResults.add(content.isTextual() ? content.asText() : content.toString());
        return message(text(Json.object().put("response_text", ANSWER).toString()), "end_turn");
      }
      if (step.equals("synthesize")) {
        ObjectNode input = Json.object().put("path", PATH).put("content", CONTENT);
        return message("{\"type\":\"tool_use\",\"id\":\"toolu_write_01\",\"name\":\"write_file\",\"input\":"
            + input + "}", "tool_use");
      }
      problems.add("unexpected request: " + step);
      return new MockResponse.Builder().code(400).setHeader("content-type", "application/json")
          .body("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"unexpected\"}}")
          .build();
    }

    private static String text(String s) {
      return Json.object().put("type", "text").put("text", s).toString();
    }

    private static MockResponse message(String block, String stopReason) {
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body("{\"id\":\"msg_mock\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-mock\","
              + "\"content\":[" + block + "],\"stop_reason\":\"" + stopReason + "\","
              + "\"usage\":{\"input_tokens\":120,\"output_tokens\":30}}")
          .build();
    }
  }
}
