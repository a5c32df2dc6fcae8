package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.faults.FaultPoints;
import cp.ledger.LedgerDatabase;
import cp.ledger.TestPostgres;
import cp.model.Json;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One ledger for many hosts: {@code cpctl dev-server} and two {@code cpctl worker} processes with
 * different {@code CP_HOME} directories (two hosts that share nothing on disk) and the same
 * {@code CP_LEDGER_URL} (a real PostgreSQL in this JVM: embedded, or {@code CP_TEST_POSTGRES_URL}).
 * The model is a MockWebServer speaking the Anthropic Messages API that records every request.
 *
 * <ol>
 *   <li>Turn 1 runs on worker A only; A is stopped.
 *   <li>Turn 2 runs on worker B and asks about turn 1: B's attention context (what it sends the
 *       model) holds turn 1's question and answer, which only A saw.
 *   <li>Worker A (again) takes turn 3 and is killed with SIGKILL right after it wrote the EXCHANGE of
 *       its first round trip ({@code ledger-written:EXCHANGE}); worker B finishes the turn, and the
 *       model received that round trip's request exactly once.
 *   <li>{@code cpctl show} and {@code cpctl ledger verify} from a third directory see the whole session.
 * </ol>
 */
class MultiHostLedgerIT {
  /** Short, so the dead worker's in-flight activity is noticed quickly (TEMPORAL-NOTES.md: ~2.7 s). */
  static final String HEARTBEAT_TIMEOUT_MS = "2000";
  static final String Q1 = "my build server is called kestrel-7, please remember that";
  static final String A1 = "Noted: your build server is kestrel-7.";
  static final String Q2 = "what is my build server called?";
  static final String A2 = "Your build server is kestrel-7.";
  static final String Q3 = "thanks, that is all for now";
  static final String A3 = "You are welcome.";
  static final Map<String, String> ANSWERS = Map.of(Q1, A1, Q2, A2, Q3, A3);

  @TempDir Path dir;
  private CpctlProcesses procs;
  private final MockWebServer server = new MockWebServer();
  private final Model model = new Model();

  @AfterEach
  void cleanUp() {
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void twoWorkersOnTwoHomes_shareOneLedger_memoryAndIdempotencyHoldAcrossHosts() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    // From the test classpath: fault injection (CP_FAULT_PAUSE) exists only there, not in the jar.
    procs = CpctlProcesses.onClasspath(dir).describing(model::describe);
    int port = procs.startDevServer();

    Path homeA = Files.createDirectories(dir.resolve("host-a"));
    Path homeB = Files.createDirectories(dir.resolve("host-b"));
    Path homeC = Files.createDirectories(dir.resolve("host-c"));
    Map<String, String> common = new HashMap<>(TestPostgres.env(db));
    common.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    common.put("CP_TASK_QUEUE", "multi-host");
    common.put("CP_PROVIDER", "anthropic");
    common.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
    common.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    common.put("CP_HEARTBEAT_TIMEOUT_MS", HEARTBEAT_TIMEOUT_MS);
    Map<String, String> onA = with(common, "CP_HOME", homeA.toString());
    Map<String, String> onB = with(common, "CP_HOME", homeB.toString());
    Map<String, String> onC = with(common, "CP_HOME", homeC.toString());

    // 1. Turn 1 on worker A only.
    CpctlProcesses.Cli workerA = procs.start("worker-a", with(onA, FaultPoints.ENV, FaultPoints.NONE), "worker");
    workerA.awaitOutput("sticky off");
    assertTrue(workerA.stdout().contains("ledgers PostgreSQL jdbc:postgresql://"), workerA::describe);
    CliHarness.Run start = CliHarness.run(onC, "session", "start");
    assertEquals(Cpctl.OK, start.code(), start::describe);
    String sid = start.out().trim();
    JsonNode turn1 = turn(onC, sid, Q1, "turn-1");
    assertEquals(A1, turn1.path("response").asText(), turn1::toString);
    workerA.stop();

    // 2. Turn 2 on worker B asks about turn 1.
    CpctlProcesses.Cli workerB = procs.start("worker-b", with(onB, FaultPoints.ENV, FaultPoints.NONE), "worker");
    workerB.awaitOutput("sticky off");
    JsonNode turn2 = turn(onC, sid, Q2, "turn-2");
    assertEquals(A2, turn2.path("response").asText(), turn2::toString);
    List<String> turn2Requests = model.bodies(Q2);
    assertFalse(turn2Requests.isEmpty(), model::describe);
    String synthesize = turn2Requests.stream().filter(b -> b.contains("## This step: write the reply")).findFirst()
        .orElseThrow(() -> new AssertionError("no synthesize request for turn 2: " + model.describe()));
    System.out.println("MultiHostLedgerIT: turn 2 (worker B) sent the model turn 1's question: " + synthesize.contains(Q1)
        + ", turn 1's answer: " + synthesize.contains(A1));
    assertTrue(synthesize.contains(Q1), "turn 2's attention context holds turn 1's question\n" + synthesize);
    assertTrue(synthesize.contains(A1), "turn 2's attention context holds turn 1's answer\n" + synthesize);
    workerB.stop();

    // 3. Worker A takes turn 3 and dies right after its first round trip's EXCHANGE is committed.
    String point = FaultPoints.of(FaultPoints.LEDGER_WRITTEN, "EXCHANGE");
    CpctlProcesses.Cli workerA2 = procs.start("worker-a-2", with(onA, FaultPoints.ENV, point), "worker");
    workerA2.awaitOutput("sticky off");
    CpctlProcesses.Cli turn3 = procs.start("turn-3", onC, "turn", "--session", sid, "--json", Q3);
    workerA2.awaitOutput(FaultPoints.MARKER + "paused at " + point);
    Map<String, Integer> beforeKill = model.counts(Q3);
    assertEquals(Map.of("classify/round-1", 1), beforeKill, "worker A had asked classify once when it paused");
    workerA2.kill();
    CpctlProcesses.Cli workerB2 = procs.start("worker-b-2", with(onB, FaultPoints.ENV, FaultPoints.NONE), "worker");
    workerB2.awaitOutput("sticky off");
    assertEquals(0, turn3.awaitExit(), () -> "turn 3 finishes on worker B\n" + procs.describeAll());
    JsonNode result3 = Json.parse(turn3.stdout());
    assertEquals("success", result3.path("outcome").asText(), result3::toString);
    assertEquals(A3, result3.path("response").asText(), result3::toString);
    System.out.println("MultiHostLedgerIT: provider requests per question/step/round: " + model.allCounts());
    assertEquals(Map.of("classify/round-1", 1, "synthesize/round-1", 1), model.counts(Q3),
        "the round trip worker A recorded before it died was not asked again by worker B");
    workerB2.stop();

    // No ledger file on either host: the ledgers are in the database.
    for (Path home : List.of(homeA, homeB)) {
      assertFalse(Files.exists(home.resolve("HOT/ledger/governance.jsonl")), home + " holds no JSONL ledger");
    }

    // 4. A third directory sees the whole session.
    CliHarness.Run show = CliHarness.run(onC, "show", sid);
    assertEquals(Cpctl.OK, show.code(), show::describe);
    for (String q : List.of(Q1, Q2, Q3)) {
      assertTrue(show.out().contains(q), () -> "show lists every turn\n" + show.describe());
    }
    CliHarness.Run verify = CliHarness.run(onC, "ledger", "verify");
    assertEquals(Cpctl.OK, verify.code(), verify::describe);
    for (String tier : List.of("OK    hot", "OK    ho2/ADMIN", "OK    ho1")) {
      assertTrue(verify.out().contains(tier), verify::describe);
    }
    CliHarness.Run exchanges = CliHarness.run(onC, "ledger", "query", "--tier", "hot", "--event", "EXCHANGE",
        "--session", sid, "--json", "--limit", "0");
    assertEquals(Cpctl.OK, exchanges.code(), exchanges::describe);
    assertEquals(6, exchanges.out().lines().count(), () -> "one EXCHANGE per round trip, none twice\n"
        + exchanges.describe());
    System.out.println("MultiHostLedgerIT: " + verify.out().trim().replace('\n', ';'));
  }

  private JsonNode turn(Map<String, String> env, String sid, String question, String name) throws Exception {
    CpctlProcesses.Cli t = procs.start(name, env, "turn", "--session", sid, "--json", question);
    assertEquals(0, t.awaitExit(), () -> name + " finishes\n" + procs.describeAll());
    return Json.parse(t.stdout());
  }

  private static Map<String, String> with(Map<String, String> env, String key, String value) {
    Map<String, String> m = new HashMap<>(env);
    m.put(key, value);
    return m;
  }

  /**
   * The Anthropic Messages API for the three questions: classify says no tools are needed,
   * synthesize answers in its first round. Requests are counted per question, step and round, and
   * their bodies kept.
   */
  static final class Model extends Dispatcher {
    private final Map<String, Map<String, Integer>> counts = new ConcurrentHashMap<>();
    private final Map<String, List<String>> bodies = new ConcurrentHashMap<>();
    final List<String> problems = Collections.synchronizedList(new ArrayList<>());

    Map<String, Integer> counts(String question) {
      return Map.copyOf(counts.getOrDefault(question, Map.of()));
    }

    Map<String, Map<String, Integer>> allCounts() {
      return Map.copyOf(counts);
    }

    List<String> bodies(String question) {
      return List.copyOf(bodies.getOrDefault(question, List.of()));
    }

    String describe() {
      return "model requests: " + counts + ", problems: " + problems;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String raw = request.getBody() == null ? "" : request.getBody().utf8();
      JsonNode body = Json.parse(raw);
      String system = body.path("system").asText("");
      String step = system.contains("## This step: classify") ? "classify"
          : system.contains("## This step: write the reply") ? "synthesize" : "unknown";
      JsonNode messages = body.path("messages");
      int round = 1;
      for (JsonNode m : messages) {
        if ("assistant".equals(m.path("role").asText())) {
          round++;
        }
      }
      String question = userInput(messages.path(0));
      if (question == null || !ANSWERS.containsKey(question)) {
        problems.add(step + " round " + round + ": unknown question " + question);
        return error(400, "unexpected request");
      }
      counts.computeIfAbsent(question, q -> new ConcurrentHashMap<>()).merge(step + "/round-" + round, 1, Integer::sum);
      bodies.computeIfAbsent(question, q -> Collections.synchronizedList(new ArrayList<>())).add(system + "\n" + raw);
      if (step.equals("classify")) {
        return message(text("{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"recall\","
            + "\"needs_tools\":false}"));
      }
      return message(text(Json.object().put("response_text", ANSWERS.get(question)).toString()));
    }

    private static String userInput(JsonNode firstMessage) {
      String text = firstMessage.path("content").path(0).path("text").asText("");
      int open = text.indexOf("<input>");
      int close = text.lastIndexOf("</input>");
      if (open < 0 || close < open) {
        return null;
      }
      return Json.parse(text.substring(open + "<input>".length(), close)).path("user_input").asText(null);
    }

    private static String text(String s) {
      return Json.object().put("type", "text").put("text", s).toString();
    }

    private static MockResponse message(String block) {
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body("{\"id\":\"msg_mock\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-mock\","
              + "\"content\":[" + block + "],\"stop_reason\":\"end_turn\","
              + "\"usage\":{\"input_tokens\":120,\"output_tokens\":30}}")
          .build();
    }

    private static MockResponse error(int code, String message) {
      return new MockResponse.Builder().code(code).setHeader("content-type", "application/json")
          .body("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + message + "\"}}")
          .build();
    }
  }
}
