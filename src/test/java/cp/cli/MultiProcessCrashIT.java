package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash recovery across real processes, the way an operator runs the plane: {@code cpctl
 * dev-server}, a {@code cpctl worker} and {@code cpctl session start} / {@code cpctl turn}
 * clients, each its own JVM from {@code target/control-plane.jar}, talking over loopback. The
 * model is a MockWebServer in this JVM speaking the Anthropic Messages API.
 *
 * <p>The worker is killed with SIGKILL while the turn's synthesize round 2 is in flight (its
 * request held at the mock); a new worker process takes over. The turn must finish for the
 * waiting client, and nothing that had finished before the kill may run again: each finished
 * LLM round is requested once, the tool runs once, no ledger line is written twice.
 */
class MultiProcessCrashIT {
  /** The whole scenario's budget; it normally takes a fraction of it. */
  static final Duration STEP_TIMEOUT = Duration.ofSeconds(40);
  /** Short, so the dead worker's in-flight activity is noticed quickly (TEMPORAL-NOTES.md: ~2.7 s). */
  static final String HEARTBEAT_TIMEOUT_MS = "2000";
  /** Child JVMs: small heap, quick start. */
  static final List<String> CHILD_JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
  static final String QUESTION = "what packages are installed?";

  @TempDir Path dir;

  private final List<Process> processes = new ArrayList<>();
  private final AnthropicMock model = new AnthropicMock();
  private final MockWebServer server = new MockWebServer();

  @AfterEach
  void cleanUp() {
    model.release();
    for (Process p : processes) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    for (Process p : processes) {
      try {
        p.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    server.close();
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void workerKilledDuringSynthesizeRound2_newWorkerProcessFinishesTheTurnWithoutRepeatingFinishedWork()
      throws Exception {
    Path jar = Path.of(System.getProperty("cp.jar", "target/control-plane.jar"));
    assertTrue(Files.isRegularFile(jar), "no " + jar + ": run 'mvn verify' (the package phase builds it)");
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    int port = freePort();
    Path home = dir.resolve("home");

    Map<String, String> env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    env.put("CP_HOME", home.toString());
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", "test-key");
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    env.put("CP_HEARTBEAT_TIMEOUT_MS", HEARTBEAT_TIMEOUT_MS);

    Cli devServer = start(jar, "dev-server", Map.of(), "dev-server", "--port", String.valueOf(port));
    devServer.awaitOutput("listening on");
    Cli worker1 = start(jar, "worker-1", env, "worker");
    worker1.awaitOutput("sticky off");

    Cli sessionStart = start(jar, "session-start", env, "session", "start");
    assertEquals(0, sessionStart.awaitExit(), sessionStart::describe);
    String sid = sessionStart.stdout().trim();
    assertTrue(sid.matches("SES-[0-9a-f]{8}"), sessionStart::describe);

    Cli turn = start(jar, "turn", env, "turn", "--session", sid, "--json", QUESTION);
    if (!model.round2Held.await(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      fail("synthesize round 2 never reached the model\n" + describeAll());
    }
    assertEquals(Map.of("classify/round-1", 1, "synthesize/round-1", 1, "synthesize/round-2", 1), model.counts(),
        "requests before the crash");

    worker1.process.destroyForcibly();
    assertTrue(worker1.process.waitFor(10, TimeUnit.SECONDS), "worker 1 did not die");
    long killedAt = System.nanoTime();
    Cli worker2 = start(jar, "worker-2", env, "worker");
    model.release();

    int turnExit = turn.awaitExit();
    long recoveredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
    System.out.printf("MultiProcessCrashIT: recovery time (SIGKILL of worker 1 -> turn client done) = %d ms%n",
        recoveredMs);
    assertEquals(0, turnExit, () -> "the turn client must finish after the crash\n" + describeAll());
    worker2.awaitOutput("sticky off");

    // The client got a successful TurnResult for the whole turn.
    JsonNode result = Json.parse(turn.stdout());
    assertEquals("success", result.path("outcome").asText(), turn::describe);
    assertEquals(sid, result.path("session_id").asText());
    assertEquals(1, result.path("turn").asInt());
    assertEquals(AnthropicMock.ANSWER, result.path("response").asText(), turn::describe);
    assertEquals(1, result.path("tool_calls").size(), "one tool call in the result");
    assertEquals("list_packages", result.path("tool_calls").path(0).path("tool_name").asText(), turn::describe);
    assertEquals(3, result.path("cost_summary").path("llm_calls").asInt(), "classify + two synthesize rounds");
    assertEquals(2, result.path("wo_chain_summary").size());
    for (JsonNode wo : result.path("wo_chain_summary")) {
      assertEquals("completed", wo.path("state").asText(), turn::describe);
    }

    // The model: finished rounds were asked once; only the round in flight at the kill was asked again.
    assertEquals(Map.of("classify/round-1", 1, "synthesize/round-1", 1, "synthesize/round-2", 2), model.counts(),
        "requests per work order and round, after recovery");

    // Stop the new worker cleanly, then read what the ledgers hold.
    worker2.process.destroy();
    assertTrue(worker2.process.waitFor(20, TimeUnit.SECONDS), "worker 2 did not shut down on SIGTERM");

    Cli verify = start(jar, "ledger-verify", Map.of("CP_HOME", home.toString()), "ledger", "verify");
    assertEquals(0, verify.awaitExit(), verify::describe);
    assertTrue(verify.stdout().contains("OK    hot") && verify.stdout().contains("OK    ho1"), verify::describe);

    List<JsonNode> hot = readLedger(home.resolve("HOT/ledger/governance.jsonl"));
    List<JsonNode> ho1 = readLedger(home.resolve("HO1/ledger/worker.jsonl"));
    List<JsonNode> ho2 = readLedger(home.resolve("HO2/ledger/ADMIN/workorder.jsonl"));
    for (var ledger : Map.of("HOT", hot, "HO1", ho1, "HO2/ADMIN", ho2).entrySet()) {
      assertNoDuplicates(ledger.getKey(), ledger.getValue());
    }

    // HOT: one EXCHANGE per answer a live worker received (4 requests, the one held at the kill was lost).
    List<JsonNode> exchanges = ofType(hot, "EXCHANGE");
    assertEquals(3, exchanges.size(), "EXCHANGE entries");
    for (JsonNode e : exchanges) {
      assertEquals("success", e.path("metadata").path("outcome").asText(), e::toString);
      assertEquals(sid, e.path("metadata").path("session_id").asText(), e::toString);
    }
    assertEquals(3, exchanges.stream().map(e -> e.path("metadata").path("activity_id").asText()).distinct().count(),
        "one EXCHANGE per round activity");
    List<Integer> attempts = exchanges.stream().map(e -> e.path("metadata").path("attempt").asInt()).toList();
    assertEquals(List.of(1, 1, 2), attempts, "only round 2 was retried, and only once");
    assertEquals(1, ofType(hot, "SESSION_START").size(), "SESSION_START entries");
    assertEquals(0, ofType(hot, "DEGRADATION").size(), "the turn must not degrade");

    // HO1: the tool ran once; each round and work order recorded once.
    assertEquals(1, ofType(ho1, "TOOL_CALL").size(), "TOOL_CALL entries");
    assertEquals(3, ofType(ho1, "LLM_CALL").size(), "LLM_CALL entries");
    assertEquals(2, ofType(ho1, "WO_EXECUTING").size(), "WO_EXECUTING entries");
    assertEquals(2, ofType(ho1, "WO_COMPLETED").size(), "WO_COMPLETED entries");
    assertEquals(0, ofType(ho1, "WO_FAILED").size(), "WO_FAILED entries");

    // HO2: two work orders planned, one chain completed.
    assertEquals(2, ofType(ho2, "WO_PLANNED").size(), "WO_PLANNED entries");
    assertEquals(1, ofType(ho2, "WO_CHAIN_COMPLETE").size(), "WO_CHAIN_COMPLETE entries");

    // The clients said nothing on stderr: no warnings, no stack traces.
    for (Cli client : List.of(sessionStart, turn, verify)) {
      assertEquals("", client.stderr(), client::describe);
    }
    assertEquals(List.of(), model.problems, "requests the model did not expect");
  }

  // ------------------------------------------------------------------ the model

  /**
   * The Anthropic Messages API for one turn of the ADMIN agent: classify answers with a
   * classification; synthesize asks for list_packages in round 1 and answers in round 2. The
   * first round-2 request is held until {@link #release()}, so the worker can be killed while it
   * waits. Requests are counted by step (from the system prompt) and round (from the messages:
   * round n has n-1 assistant turns, and its last message is the user text or a tool result).
   */
  static final class AnthropicMock extends Dispatcher {
    static final String ANSWER = "The installed packages are listed by the list_packages tool.";

    final CountDownLatch round2Held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicBoolean holding = new AtomicBoolean();
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());

    Map<String, Integer> counts() {
      return Map.copyOf(counts);
    }

    void release() {
      released.countDown();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
      JsonNode body;
      try {
        body = Json.parse(request.getBody() == null ? "" : request.getBody().utf8());
      } catch (RuntimeException e) {
        problems.add("unparseable request: " + e.getMessage());
        return error(400, "request body is not JSON");
      }
      if (!"test-key".equals(request.getHeaders().get("x-api-key"))) {
        problems.add("request without the test key");
        return error(401, "invalid x-api-key");
      }
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
      JsonNode last = messages.path(messages.size() - 1);
      String lastKind = last.path("content").path(0).path("type").asText();
      if (!QUESTION.equals(userInput(messages.path(0)))) {
        problems.add(step + " round " + round + ": <input> does not carry the question");
      }
      counts.merge(step + "/round-" + round, 1, Integer::sum);

      if (step.equals("classify") && round == 1) {
        return message(text("{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"list_installed_packages\","
            + "\"needs_tools\":true}"), "end_turn");
      }
      if (step.equals("synthesize") && round == 1 && lastKind.equals("text")) {
        return message("{\"type\":\"tool_use\",\"id\":\"toolu_mock_01\",\"name\":\"list_packages\",\"input\":{}}",
            "tool_use");
      }
      if (step.equals("synthesize") && round == 2 && lastKind.equals("tool_result")) {
        if (holding.compareAndSet(false, true)) {
          round2Held.countDown();
          released.await(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        return message(text(Json.object().put("response_text", ANSWER).toString()), "end_turn");
      }
      problems.add("unexpected request: " + step + " round " + round + " ending in " + lastKind);
      return error(400, "unexpected request");
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

    private static MockResponse message(String block, String stopReason) {
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body("{\"id\":\"msg_mock\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-mock\","
              + "\"content\":[" + block + "],\"stop_reason\":\"" + stopReason + "\","
              + "\"usage\":{\"input_tokens\":120,\"output_tokens\":30}}")
          .build();
    }

    private static MockResponse error(int code, String message) {
      return new MockResponse.Builder().code(code).setHeader("content-type", "application/json")
          .body("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + message + "\"}}")
          .build();
    }
  }

  // ------------------------------------------------------------------ processes

  /** One cpctl process with its stdout and stderr in files. */
  final class Cli {
    final String name;
    final Process process;
    final Path out;
    final Path err;

    Cli(String name, Process process, Path out, Path err) {
      this.name = name;
      this.process = process;
      this.out = out;
      this.err = err;
    }

    String stdout() {
      return read(out);
    }

    String stderr() {
      return read(err);
    }

    int awaitExit() throws InterruptedException {
      if (!process.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        fail(name + " did not finish within " + STEP_TIMEOUT + "\n" + describeAll());
      }
      return process.exitValue();
    }

    void awaitOutput(String text) throws InterruptedException {
      long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        if (stdout().contains(text)) {
          return;
        }
        if (!process.isAlive()) {
          fail(name + " exited with " + process.exitValue() + " before printing '" + text + "'\n" + describe());
        }
        Thread.sleep(50);
      }
      fail(name + " did not print '" + text + "' within " + STEP_TIMEOUT + "\n" + describe());
    }

    String describe() {
      return "== " + name + (process.isAlive() ? " (running)" : " (exit " + process.exitValue() + ")")
          + "\n-- stdout:\n" + tail(stdout()) + "\n-- stderr:\n" + tail(stderr());
    }
  }

  private final List<Cli> started = new ArrayList<>();

  private Cli start(Path jar, String name, Map<String, String> env, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(CHILD_JVM_OPTIONS);
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    // Only the variables this test sets: nothing from the developer's shell (keys, addresses) leaks in.
    pb.environment().keySet().removeIf(k -> k.startsWith("CP_") || k.startsWith("TEMPORAL_")
        || k.startsWith("ANTHROPIC_") || k.startsWith("OPENAI_"));
    pb.environment().putAll(env);
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    Path in = Files.writeString(dir.resolve(name + ".in"), "");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(in.toFile());
    Process p = pb.start();
    processes.add(p);
    Cli cli = new Cli(name, p, out, err);
    started.add(cli);
    return cli;
  }

  private String describeAll() {
    StringBuilder sb = new StringBuilder("model requests: " + model.counts() + ", problems: " + model.problems + "\n");
    for (Cli c : started) {
      sb.append(c.describe()).append('\n');
    }
    return sb.toString();
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static String tail(String s) {
    int max = 3000;
    return s.length() <= max ? s : "[...]" + s.substring(s.length() - max);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  // ------------------------------------------------------------------ ledgers, read as plain JSON lines

  private static List<JsonNode> readLedger(Path file) throws IOException {
    List<JsonNode> entries = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        entries.add(Json.parse(line));
      }
    }
    return entries;
  }

  private static List<JsonNode> ofType(List<JsonNode> entries, String type) {
    return entries.stream().filter(e -> type.equals(e.path("event_type").asText())).toList();
  }

  /** No entry id and no idempotency key appears twice: nothing was written twice. */
  private static void assertNoDuplicates(String ledger, List<JsonNode> entries) {
    Set<String> ids = new HashSet<>();
    Set<String> keys = new HashSet<>();
    for (JsonNode e : entries) {
      assertTrue(ids.add(e.path("entry_id").asText()), () -> ledger + ": duplicate entry " + e);
      String key = e.path("idempotency_key").asText("");
      assertTrue(key.isEmpty() || keys.add(key), () -> ledger + ": idempotency key written twice: " + key);
    }
  }
}
