package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import cp.eval.CaseInput;
import cp.eval.EvalCase;
import cp.eval.EvalSuite;
import cp.eval.Expectations;
import cp.eval.RecordedTurn;
import cp.eval.SuiteFiles;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.Ledgers;
import cp.model.Json;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 "done when": a {@code cpctl eval run} process (the run's client and its eval worker) is
 * killed with SIGKILL mid-suite, and the same command run again resumes: every case is reported,
 * and the cases finished before the kill are not run again, proven by the fake model's call count
 * per case and by the eval ledger. Separate JVMs: a dev server (which keeps the run's sessions), the
 * killed run, the resumed run.
 */
class EvalRunCrashIT {
  static final int CASES = 4;
  /** How long the fake model takes to write each reply: long enough to kill a run while one is in flight. */
  static final long REPLY_MS = 1500;

  @TempDir Path dir;
  private final MockWebServer server = new MockWebServer();
  private CpctlProcesses procs;
  /** Model calls per question: classify and synthesize each call once per turn that runs. */
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

  @AfterEach
  void cleanUp() {
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  private final class Model extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest r) {
      JsonNode req = Json.parse(r.getBody().utf8());
      JsonNode msgs = req.path("messages");
      String text = msgs.get(msgs.size() - 1).path("content").asText();
      String question = text.replaceAll("(?s).*\"user_input\"\\s*:\\s*\"(question [0-9]+)[^\"]*\".*", "$1");
      calls.computeIfAbsent(question, q -> new AtomicInteger()).incrementAndGet();
      boolean synthesize = r.getBody().utf8().contains("write the reply to the user");
      String content = synthesize ? Json.object().put("response_text", "Answer to " + question + ".").toString()
          : "{\"speech_act\":\"question\",\"ambiguity\":\"low\"}";
      MockResponse.Builder b = EvalRunCommandTest.FakeModels.completion("m-1", content);
      return (synthesize ? b.bodyDelay(REPLY_MS, TimeUnit.MILLISECONDS) : b).build();
    }
  }

  /** A suite of {@link #CASES} questions, each expected to be answered by name. */
  private Path suite() {
    Path suite = dir.resolve("suite.yaml");
    List<EvalCase> cases = new java.util.ArrayList<>();
    for (int i = 1; i <= CASES; i++) {
      cases.add(new EvalCase("q" + i, new CaseInput("question " + i + " please", "RESIDENT", "default",
          "SES-00000000", 1, null), new RecordedTurn("Answer to question " + i + ".", null, "success", true,
          List.of(), 0.0, 0, 0), List.of(), new Expectations(null, null, null, List.of("question " + i), null, null,
          null, null, null)));
    }
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", cases), suite);
    return suite;
  }

  /** The run's environment: the fake model, fast heartbeats; with a dev-server at {@code port} unless 0. */
  private Map<String, String> env(int port) {
    Map<String, String> env = new HashMap<>();
    if (port != 0) {
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    }
    env.put("CP_HOME", dir.resolve("home").toString());
    env.put("CP_PROVIDER", "openai");
    env.put("OPENAI_API_KEY", "sk-test-eval");
    env.put("OPENAI_BASE_URL", "http://127.0.0.1:" + server.getPort() + "/v1");
    env.put("CP_MODEL", "m-1");
    env.put("CP_HEARTBEAT_TIMEOUT_MS", MultiProcessCrashIT.HEARTBEAT_TIMEOUT_MS);
    return env;
  }

  /** Starts the run, and SIGKILLs it once two cases have finished and the third is writing its reply. */
  private void runAndKillAtTheThirdCase(Map<String, String> env, String[] args) throws Exception {
    CpctlProcesses.Cli first = procs.start("eval-run-1", env, args);
    first.awaitStderr("q2: success");
    long deadline = System.nanoTime() + CpctlProcesses.STEP_TIMEOUT.toNanos();
    while (calls.getOrDefault("question 3", new AtomicInteger()).get() < 2) { // q3's reply is being written
      if (System.nanoTime() > deadline || !first.process.isAlive()) {
        fail("the third case never reached its reply\n" + procs.describeAll());
      }
      Thread.sleep(20);
    }
    first.kill();
    assertEquals(2, calls.get("question 1").get(), "q1 ran once before the kill: " + calls);
    assertEquals(2, calls.get("question 2").get(), "q2 ran once before the kill: " + calls);
  }

  private void start() throws Exception {
    server.setDispatcher(new Model());
    server.start(InetAddress.getLoopbackAddress(), 0);
    procs = CpctlProcesses.onClasspath(dir).describing(() -> "model calls: " + calls);
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void sigkillOfTheRunMidSuite_theSameCommandResumes_withoutRunningFinishedCasesAgain() throws Exception {
    start();
    Map<String, String> env = env(procs.startDevServer());
    String[] args = {"eval", "run", suite().toString(), "--concurrency", "1"};
    runAndKillAtTheThirdCase(env, args);

    CpctlProcesses.Cli second = procs.start("eval-run-2", env, args);
    int exit = second.awaitExit(java.time.Duration.ofSeconds(120));

    assertEquals(Cpctl.OK, exit, second::describe);
    assertTrue(second.stdout().contains(CASES + " of " + CASES + " cases passed"), second::describe);
    assertTrue(second.stderr().contains("q1: finished in an earlier run") && second.stderr().contains(
        "q2: finished in an earlier run"), second::describe);
    assertEquals(2, calls.get("question 1").get(), "q1 was not run again: " + calls);
    assertEquals(2, calls.get("question 2").get(), "q2 was not run again: " + calls);
    assertEquals(2, calls.get("question 4").get(), "q4 ran once, after the resume: " + calls);
    assertTrue(calls.get("question 3").get() >= 2, "q3, in flight at the kill, finished: " + calls);
    String runId = second.stdout().replaceAll("(?s)^eval run (EVR-[0-9a-f]{12}).*", "$1");
    try (Ledgers l = Ledgers.open(dir.resolve("home").resolve("evals").resolve(runId).resolve("home"))) {
      List<LedgerEntry> starts = l.hot().query(LedgerQuery.eventType("SESSION_START"));
      assertEquals(CASES, starts.size(), "one session per case, q3's attached to again, not started over");
      for (LedgerEntry s : starts) {
        long answered = l.hot().query(LedgerQuery.session(s.sessionId()).withEventType("EXCHANGE")).stream()
            .filter(x -> "success".equals(x.metaText("outcome"))).count();
        assertEquals(2, answered, "each case's turn has one classify and one synthesize answer: " + s.sessionId());
      }
    }
    assertTrue(Files.exists(dir.resolve("home").resolve("evals").resolve(runId).resolve("results.json")));
    System.out.printf("EvalRunCrashIT: model calls per case %s%n", new java.util.TreeMap<>(calls));
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void withTheEmbeddedService_theCaseInFlightStartsOverInANewSession_theFinishedOnesAreNotRunAgain()
      throws Exception {
    start();
    Map<String, String> env = env(0);
    String[] args = {"eval", "run", suite().toString(), "--concurrency", "1"};
    runAndKillAtTheThirdCase(env, args);

    CpctlProcesses.Cli second = procs.start("eval-run-2", env, args);
    int exit = second.awaitExit(java.time.Duration.ofSeconds(120));

    assertEquals(Cpctl.OK, exit, second::describe);
    assertTrue(second.stdout().contains(CASES + " of " + CASES + " cases passed"), second::describe);
    assertEquals(2, calls.get("question 1").get(), "q1 was not run again: " + calls);
    assertEquals(2, calls.get("question 2").get(), "q2 was not run again: " + calls);
    assertEquals(4, calls.get("question 3").get(), "q3 ran twice: half before the kill, whole after: " + calls);
    assertEquals(2, calls.get("question 4").get(), "q4 ran once, after the resume: " + calls);
    String runId = second.stdout().replaceAll("(?s)^eval run (EVR-[0-9a-f]{12}).*", "$1");
    try (Ledgers l = Ledgers.open(dir.resolve("home").resolve("evals").resolve(runId).resolve("home"))) {
      assertEquals(CASES + 1, l.hot().query(LedgerQuery.eventType("SESSION_START")).size(),
          "q3's lost session and its new one");
    }
    System.out.printf("EvalRunCrashIT (embedded): model calls per case %s%n", new java.util.TreeMap<>(calls));
  }
}
