package cp.cli;

import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.eval.CaseInput;
import cp.eval.EvalCase;
import cp.eval.EvalSuite;
import cp.eval.Expectations;
import cp.eval.SuiteFiles;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl eval run} end to end (issue 25 §6): sessions recorded on a production plane are frozen
 * ({@code cpctl eval freeze}) and run: the same model passes (exit 0, production ledgers and
 * {@code cpctl spend} unchanged); another definition ({@code --agents-dir}) or model ({@code --model})
 * fails the changed cases with a diff (exit 1, JUnit XML naming them); the judge, on a fake model,
 * passes one case and fails the other; bad usage exits 2.
 */
class EvalRunCommandTest {
  @TempDir
  Path home;
  @TempDir
  Path work;

  private static List<TurnResult> record(Map<String, String> env, String agent, String... texts) {
    List<TurnResult> out = new ArrayList<>();
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(Path.of(env.get("CP_HOME")), env),
        PlaneRuntime::builtinTools)) {
      for (String text : texts) {
        String sid = plane.client.startSession(agent);
        out.add(plane.client.turn(sid, text));
        plane.client.end(sid);
      }
    }
    out.forEach(r -> assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString));
    return out;
  }

  private Path freeze(Map<String, String> env, List<TurnResult> turns, String name) {
    List<EvalCase> cases = new ArrayList<>();
    for (TurnResult t : turns) {
      Path one = work.resolve(t.sessionId() + ".yaml");
      var r = run(env, "eval", "freeze", "--session", t.sessionId(), "--out", one.toString());
      assertEquals(Cpctl.OK, r.code(), r::describe);
      cases.addAll(SuiteFiles.read(one).cases());
    }
    Path suite = work.resolve(name);
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", cases), suite);
    return suite;
  }

  private Map<String, String> production() throws IOException {
    return cp.eval.ProductionFiles.of(home);
  }

  @Test
  void theSameModel_passesEveryCase_exit0_andProductionSessionsAndSpendAreUnchanged() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    List<TurnResult> turns = record(env, "ADMIN", "hello", "what packages are installed?");
    Path suite = freeze(env, turns, "suite.yaml");
    var spendBefore = run(env, "spend", "--json");
    var sessionsBefore = run(env, "ledger", "query", "--tier", "hot", "--event", "SESSION_START", "--limit", "0");
    Map<String, String> before = production();
    Path junit = work.resolve("junit.xml");
    Path report = work.resolve("report.md");

    var r = run(env, "eval", "run", suite.toString(), "--junit", junit.toString(), "--report", report.toString());

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().matches("(?s)eval run EVR-[0-9a-f]{12}: .*"), r::describe);
    assertTrue(r.out().contains("2 of 2 cases passed. Tools replayed from the record: list_packages."), r::describe);
    assertTrue(Files.readString(junit).contains("failures=\"0\""), () -> readQuietly(junit));
    assertTrue(Files.exists(report));
    assertEquals(before, production(), "no production ledger or counter file changed");
    assertEquals(spendBefore.out(), run(env, "spend", "--json").out(), "cpctl spend is unchanged");
    assertEquals(sessionsBefore.out(), run(env, "ledger", "query", "--tier", "hot", "--event", "SESSION_START", "--limit", "0").out());

    var again = run(env, "eval", "run", suite.toString());
    assertEquals(Cpctl.OK, again.code(), again::describe);
    assertEquals(2, again.err().split("not run again", -1).length - 1, again::describe);
  }

  @Test
  void anotherDefinition_failsTheChangedCase_withADiff_exit1_andJunitNamesIt() throws Exception {
    Path granted = Files.createDirectories(work.resolve("granted"));
    Path ungranted = Files.createDirectories(work.resolve("ungranted"));
    Files.writeString(granted.resolve("pkg.yaml"), "agent_class: PKG\ninstructions: You list packages.\n"
        + "tools: [list_packages]\n");
    Files.writeString(ungranted.resolve("pkg.yaml"), "agent_class: PKG\ninstructions: You list packages.\n"
        + "tools: [read_file]\n");
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", granted.toString());
    List<TurnResult> turns = record(env, "PKG", "hello", "what packages are installed?");
    Path suite = freeze(env, turns, "pkg.json");

    var same = run(env, "eval", "run", suite.toString());
    assertEquals(Cpctl.OK, same.code(), same::describe);

    Path junit = work.resolve("junit.xml");
    var changed = run(env, "eval", "run", suite.toString(), "--agents-dir", ungranted.toString(), "--junit",
        junit.toString());

    assertEquals(Cpctl.FAILED, changed.code(), changed::describe);
    assertTrue(changed.out().contains("1 of 2 cases passed"), changed::describe);
    assertTrue(changed.out().contains("--- recorded") && changed.out().contains("+++ this run"), changed::describe);
    String xml = Files.readString(junit);
    assertTrue(xml.contains("failures=\"1\""), xml);
    assertTrue(failed(xml, turns.get(1).sessionId()), xml);
    assertFalse(failed(xml, turns.get(0).sessionId()), xml);
  }

  /** An OpenAI-compatible fake: replies by model and question, and judges by whether the reply names Paris. */
  static final class FakeModels extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest r) {
      String body = r.getBody().utf8();
      JsonNode req = Json.parse(body);
      String content;
      if (body.contains("judge of an evaluation suite")) {
        JsonNode input = input(req);
        boolean pass = input.path("reply").asText().contains("Paris");
        content = Json.object().put("pass", pass).put("reason", pass ? "names Paris" : "does not name Paris")
            .toString();
      } else if (body.contains("write the reply to the user")) {
        String q = input(req).path("user_input").asText();
        String answer = !"good-1".equals(req.path("model").asText()) ? "I am not sure."
            : q.contains("France") ? "The capital of France is Paris." : "The capital of Spain is Madrid.";
        content = Json.object().put("response_text", answer).toString();
      } else {
        content = "{\"speech_act\":\"question\",\"ambiguity\":\"low\"}";
      }
      return completion(req.path("model").asText(), content).build();
    }

    /** An OpenAI chat completion answering {@code content}, 50 prompt and 10 completion tokens. */
    static MockResponse.Builder completion(String model, String content) {
      var reply = Json.object().put("id", "chatcmpl-1").put("model", model);
      reply.putArray("choices").add(Json.object().put("index", 0).put("finish_reason", "stop")
          .set("message", Json.object().put("role", "assistant").put("content", content)));
      reply.set("usage", Json.object().put("prompt_tokens", 50).put("completion_tokens", 10));
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body(reply.toString());
    }

    /** The work order's input: the JSON between {@code <input>} and {@code </input>} of the last user message. */
    static JsonNode input(JsonNode req) {
      JsonNode msgs = req.path("messages");
      String text = msgs.get(msgs.size() - 1).path("content").asText();
      Matcher m = Pattern.compile("(?s)<input>(.*)</input>").matcher(text);
      return m.find() ? Json.parse(m.group(1).trim()) : Json.object();
    }
  }

  private Map<String, String> fakeModelEnv(MockWebServer server) {
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_PROVIDER", "openai");
    env.put("OPENAI_API_KEY", "sk-test-eval");
    env.put("OPENAI_BASE_URL", server.url("/v1").toString());
    env.put("CP_MODEL", "good-1");
    return env;
  }

  @Test
  void anotherModel_failsTheCasesItAnswersDifferently_exit1() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new FakeModels());
      server.start();
      Map<String, String> env = fakeModelEnv(server);
      Path suite = freeze(env, record(env, "RESIDENT", "What is the capital of France?"), "model.yaml");
      EvalSuite s = SuiteFiles.read(suite);
      EvalCase c = s.cases().get(0);
      Expectations e = c.expect();
      SuiteFiles.write(new EvalSuite(1, s.frozenAt(), List.of(c.withExpect(new Expectations(e.schemaValid(),
          e.gatePasses(), e.tools(), List.of("Paris"), null, null, null, null, null)))), suite);

      var same = run(env, "eval", "run", suite.toString(), "--model", "good-1");
      assertEquals(Cpctl.OK, same.code(), same::describe);
      Path junit = work.resolve("model.xml");
      var other = run(env, "eval", "run", suite.toString(), "--model", "openai:bad-1", "--junit", junit.toString());
      assertEquals(Cpctl.FAILED, other.code(), other::describe);
      assertTrue(other.out().contains("openai bad-1"), other::describe);
      assertTrue(other.out().contains("+I am not sure."), other::describe);
      assertTrue(Files.readString(junit).contains("failures=\"1\""), () -> readQuietly(junit));

      String otherRun = other.out().replaceAll("(?s)^eval run (EVR-[0-9a-f]{12}).*", "$1");
      Path json = work.resolve("baseline.json");
      var vsBaseline = run(env, "eval", "run", suite.toString(), "--model", "good-1", "--baseline", otherRun,
          "--report", json.toString());
      assertEquals(Cpctl.OK, vsBaseline.code(), vsBaseline::describe);
      String diff = Files.readString(json);
      assertTrue(diff.contains("baseline " + otherRun) && diff.contains("-I am not sure.")
          && diff.contains("+The capital of France is Paris."), diff);
    }
  }

  @Test
  void theJudge_onAFakeModel_passesOneCaseAndFailsTheOther_asAGovernedWorkOrder() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new FakeModels());
      server.start();
      Map<String, String> env = fakeModelEnv(server);
      Path suite = freeze(env, record(env, "RESIDENT", "What is the capital of France?",
          "What is the capital of Spain?"), "judge.yaml");
      EvalSuite s = SuiteFiles.read(suite);
      List<EvalCase> judged = s.cases().stream().map(c -> c.withExpect(new Expectations(null, null, null, null,
          null, null, null, null, "The reply names \"Paris\"."))).toList();
      SuiteFiles.write(new EvalSuite(1, s.frozenAt(), judged), suite);
      Path junit = work.resolve("judge.xml");

      var r = run(env, "eval", "run", suite.toString(), "--junit", junit.toString());

      assertEquals(Cpctl.FAILED, r.code(), r::describe);
      assertTrue(r.out().contains("1 of 2 cases passed"), r::describe);
      assertTrue(r.out().contains("judge: ") && r.out().contains("does not name Paris"), r::describe);
      String xml = Files.readString(junit);
      assertTrue(xml.contains("failures=\"1\""), xml);
      Path evalHome = Files.list(home.resolve("evals")).findFirst().orElseThrow().resolve("home");
      try (Ledgers l = Ledgers.open(evalHome)) {
        List<LedgerEntry> judges = l.hot().query(LedgerQuery.eventType("EXCHANGE")).stream()
            .filter(x -> "PRC-JUDGE-001".equals(x.metaText("contract_id"))).toList();
        assertEquals(2, judges.size(), "one recorded judge call per case");
        judges.forEach(x -> assertEquals("eval", x.metaText("tenant")));
      }
    }
  }

  @Test
  void concurrency_boundsHowManyCasesRunAtOnce() throws Exception {
    java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
    FakeModels models = new FakeModels();
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest r) throws InterruptedException {
          if (!r.getBody().utf8().contains("write the reply to the user")) {
            return models.dispatch(r);
          }
          most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          try {
            Thread.sleep(400); // the reply takes a while, so cases that may overlap do
            return models.dispatch(r);
          } finally {
            inFlight.decrementAndGet();
          }
        }
      });
      server.start();
      Map<String, String> env = fakeModelEnv(server);
      List<EvalCase> cases = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        cases.add(new EvalCase("c" + i, new cp.eval.CaseInput("What is the capital of France? (" + i + ")",
            "RESIDENT", null, null, 1, null), null, null, null));
      }
      Path suite = work.resolve("five.yaml");
      SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", cases), suite);

      var r = run(env, "eval", "run", suite.toString(), "--concurrency", "2");

      assertEquals(Cpctl.OK, r.code(), r::describe);
      assertTrue(r.out().contains("5 of 5 cases passed"), r::describe);
      assertEquals(2, most.get(), "at most --concurrency cases wrote their reply at once, and that many did");
    }
  }

  /**
   * A case whose turn called write_file (approval required, 240 s) with a person's grant: replayed,
   * its approval is decided from the record at once (the call is replayed, nothing runs), recorded
   * as decided by eval-replay; before, the run waited for a person until the approval timed out.
   */
  @Test
  void aReplayedCaseWhoseToolNeedsApproval_isDecidedFromTheRecord_withoutWaitingForAPerson() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    String text = "call write_file {\"path\": \"HO2/notes.txt\", \"content\": \"hello\"}";
    TurnResult recorded;
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, env), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      var turn = java.util.concurrent.CompletableFuture.supplyAsync(() -> plane.client.turn(sid, text));
      List<cp.model.PendingApproval> pending = List.of();
      for (int i = 0; i < 200 && pending.isEmpty(); i++) {
        Thread.sleep(50);
        pending = plane.client.pendingApprovals(sid);
      }
      assertEquals(1, pending.size(), "the recorded turn waits for its approval");
      plane.client.approve(sid, new cp.model.ApprovalDecision(pending.get(0).approvalId(), "grant", "alice", "ok"),
          null);
      recorded = turn.get(60, java.util.concurrent.TimeUnit.SECONDS);
      plane.client.end(sid);
    }
    assertEquals(List.of("write_file"), recorded.toolCalls().stream().map(cp.model.ToolCallSummary::toolName).toList());
    Path suite = freeze(env, List.of(recorded), "approval.yaml");

    var r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(120),
        () -> run(env, "eval", "run", suite.toString()));

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("1 of 1 cases passed. Tools replayed from the record: write_file."), r::describe);
    Path evalHome = home.resolve("evals");
    String decided;
    try (var files = Files.walk(evalHome)) {
      decided = files.filter(f -> f.toString().endsWith(".jsonl")).map(EvalRunCommandTest::readQuietly)
          .filter(t -> t.contains("APPROVAL_DECIDED")).findFirst().orElse("");
    }
    assertTrue(decided.contains("eval-replay") && decided.contains("granted"), decided);
  }

  @Test
  void aHandWrittenCaseWhoseToolIsDenied_isNotReportedAsReplayed_andDoesNotSatisfyItsToolsExpectation()
      throws Exception {
    Map<String, String> env = CliHarness.env(home);
    // Only id and input.text (README: enough for a hand-written case): agent class ADMIN. The turn asks for
    // write_file, which needs approval; nothing recorded it, so the replay denies it: the tool does not run.
    Path suite = work.resolve("denied.yaml");
    Files.writeString(suite, "suite_version: 1\ncases:\n- id: denied\n  input:\n    text: 'call write_file"
        + " {\"path\": \"HO2/notes.txt\", \"content\": \"hello\"}'\n  expect:\n    tools: [write_file]\n");

    var r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(120),
        () -> run(env, "eval", "run", suite.toString()));

    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(r.out().contains("tools: expected [write_file], ran []"), r::describe);
    assertTrue(r.out().contains("not run, approval denied or timed out: write_file"), r::describe);
    assertTrue(r.out().contains("1 call(s) did not run: approval denied or timed out"), r::describe);
    assertFalse(r.out().contains("replayed tools: write_file"), r::describe);
    assertFalse(r.out().contains("Tools replayed from the record: write_file"), r::describe);
  }

  /**
   * A tester's report: {@code eval run --live-tools} on its own embedded service printed nothing
   * while a case's tool call waited for an approval nobody could give (240 s for write_file). It
   * now says once what waits, until when, and that nobody can decide it there.
   */
  @Test
  void liveToolsOnTheEmbeddedService_sayWhatWaitsForApproval_andThatNobodyCanDecideIt() throws Exception {
    Path agents = work.resolve("agents");
    Files.createDirectories(agents);
    Files.writeString(agents.resolve("w.yaml"), "agent_class: WRITER\ninstructions: You write notes.\n"
        + "tools: [write_file]\napproval_timeout_seconds: 2\npermissions: {write: ['HO2/*']}\n");
    Path suite = work.resolve("live.yaml");
    Files.writeString(suite, "suite_version: 1\ncases:\n- id: live\n  input:\n    agent_class: WRITER\n"
        + "    text: 'call write_file {\"path\": \"HO2/n.txt\", \"content\": \"x\"}'\n");
    Map<String, String> env = CliHarness.env(home);

    var r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(120),
        () -> run(env, "eval", "run", suite.toString(), "--live-tools", "--agents-dir", agents.toString()));

    assertTrue(r.err().contains("live: write_file waits for approval APR-"), r::describe);
    assertTrue(r.err().contains("nobody can decide it: this run's Temporal service is embedded"), r::describe);
    assertEquals(1, r.err().lines().filter(l -> l.contains("waits for approval")).count(), "told once: "
        + r.describe());
    assertTrue(r.out().contains("1 call(s) did not run: approval denied or timed out"), r::describe);
  }

  @Test
  void aReportThatCannotBeWritten_isRefusedBeforeAnyCaseRuns() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    Path suite = work.resolve("one.yaml");
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", List.of(new EvalCase("c1",
        new CaseInput("hello", "ADMIN", null, null, 1, null), null, List.of(), null))), suite);
    for (String option : List.of("--report", "--junit")) {
      var r = run(env, "eval", "run", suite.toString(), option, work.resolve("no-such-dir/r.json").toString());
      CliHarness.assertOneLineError(r, Cpctl.BAD_INPUT);
      assertTrue(r.err().contains("no-such-dir") && r.err().contains("does not exist"), r::describe);
      assertFalse(r.out().contains("eval run EVR-"), "no case ran: " + r.describe());
    }
  }

  @Test
  void aModelNameForTheOfflineProvider_isRefused_insteadOfRunningOfflineSilently() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    Path suite = work.resolve("one.yaml");
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", List.of(new EvalCase("c1",
        new CaseInput("hello", "ADMIN", null, null, 1, null), null, List.of(), null))), suite);
    var typo = run(env, "eval", "run", suite.toString(), "--model", "opneai:gpt-4o");
    CliHarness.assertOneLineError(typo, Cpctl.BAD_INPUT);
    assertTrue(typo.err().contains("'opneai' is not a provider"), typo::describe);
    var offline = run(env, "eval", "run", suite.toString(), "--model", "offline:whatever");
    CliHarness.assertOneLineError(offline, Cpctl.BAD_INPUT);
    assertTrue(offline.err().contains("the run's provider is offline, which has no models"), offline::describe);
  }

  @Test
  void badUsage_exits2_withOneLine() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    CliHarness.assertOneLineError(run(env, "eval", "run", work.resolve("missing.yaml").toString()), Cpctl.BAD_INPUT);
    Path empty = work.resolve("empty.yaml");
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", List.of()), empty);
    var none = run(env, "eval", "run", empty.toString());
    CliHarness.assertOneLineError(none, Cpctl.BAD_INPUT);
    assertTrue(none.err().contains("cases: is empty: a suite needs at least one case"), none::describe);
    Path suite = work.resolve("one.yaml");
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", List.of(new EvalCase("c1",
        new CaseInput("hello", "ADMIN", null, null, 1, null), null, List.of(), null))), suite);
    CliHarness.assertOneLineError(run(env, "eval", "run", suite.toString(), "--report", "r.txt"), Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "eval", "run", suite.toString(), "--concurrency", "0"), Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "eval", "run", suite.toString(), "--baseline", "EVR-000000000000"),
        Cpctl.BAD_INPUT);
    CliHarness.assertOneLineError(run(env, "eval", "run", suite.toString(), "--agents-dir",
        work.resolve("nope").toString()), Cpctl.BAD_INPUT);
    assertEquals(Cpctl.BAD_INPUT, run(env, "eval", "run", suite.toString(), "--no-such-flag").code());
  }

  /** Whether the JUnit XML has a failure for the case frozen from {@code sessionId}'s turn 1. */
  private static boolean failed(String xml, String sessionId) {
    return Pattern.compile("<testcase[^>]*" + sessionId + "#1\"[^>]*>\\s*<failure").matcher(xml).find();
  }

  private static String readQuietly(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
