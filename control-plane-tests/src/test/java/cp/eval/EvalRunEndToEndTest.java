package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.TurnResult;
import cp.observability.Telemetry;
import cp.tools.ToolResult;
import cp.worker.PlaneFixture;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl eval run}'s work on a real plane (issue 25 §1-3, §5): each case a real turn in tenant
 * {@code eval} with its own plane root under {@code CP_HOME/evals/<run>/home}, recorded tool results
 * replayed through the tool executor (and recorded as such), a run started again not running a
 * finished case twice, and the judge as a work order on the plane.
 */
class EvalRunEndToEndTest {
  @TempDir
  Path home;

  static final String PACKAGES = "what packages are installed?";
  static final String RECORDED_PACKAGES = "recorded-pkg 9.9.9 (from the record, not this worker)";

  private Map<String, String> env() {
    return PlaneFixture.env(home, Map.of());
  }

  static EvalCase evalCase(String id, String text, List<RecordedToolCall> tools, Expectations expect) {
    return new EvalCase(id, new CaseInput(text, "ADMIN", "default", "SES-00000000", 1, null),
        new RecordedTurn("", null, "success", true, tools, 0.0, 0, 0), List.of(), expect);
  }

  private Path suite(EvalCase... cases) {
    Path f = home.getParent().resolve(home.getFileName() + "-suite.yaml");
    SuiteFiles.write(new EvalSuite(1, "2026-11-26T00:00:00Z", List.of(cases)), f);
    return f;
  }

  private EvalRunner.Outcome run(Path suite, EvalRunOptions options, List<String> progress) throws Exception {
    return EvalRunner.run(env(), suite, options, Telemetry.NOOP, s -> { }, progress::add);
  }

  private static List<LedgerEntry> entries(Path planeRoot,
      java.util.function.Function<Ledgers, cp.ledger.LedgerStream> s, String type) {
    try (Ledgers l = Ledgers.open(planeRoot)) {
      return s.apply(l).query(LedgerQuery.eventType(type));
    }
  }

  private Map<String, String> production() throws IOException {
    return ProductionFiles.of(home);
  }

  @Test
  void aCaseRunsAsARealTurnInTenantEval_withItsRecordedToolResultReplayed_andProductionUntouched() throws Exception {
    TurnResult production;
    try (PlaneFixture plane = PlaneFixture.start(env(),
        deps -> (a, s, t, args, allowed) -> ToolResult.ok("live-pkg 1.0"))) {
      String sid = plane.client.startSession("ADMIN");
      production = plane.client.turn(sid, "hello");
    }
    Map<String, String> before = production();
    Path suite = suite(
        evalCase("c1", PACKAGES, List.of(new RecordedToolCall("list_packages", Json.object(),
            TextNode.valueOf(RECORDED_PACKAGES), false)), Expectations.NONE),
        evalCase("c2", PACKAGES, List.of(), Expectations.NONE));

    EvalRunner.Outcome out = run(suite, EvalRunOptions.defaults(), new ArrayList<>());

    assertEquals(before, production(), "the production plane root is unchanged by the run");
    assertEquals("success", production.outcome());
    CaseRun c1 = out.runs().get(0);
    assertNull(c1.error(), c1.error());
    assertEquals(List.of("list_packages"), c1.replayedTools());
    assertEquals(RECORDED_PACKAGES, c1.toolsCalled().get(0).result().asText(), "the recorded result answered the call");
    assertTrue(c1.unrecordedToolCalls().isEmpty());
    CaseRun c2 = out.runs().get(1);
    assertEquals(List.of("list_packages {}"), c2.unrecordedToolCalls(), "a call the record lacks is reported");
    assertTrue(c2.toolsCalled().get(0).error());

    Path evalHome = out.scope().root().resolve("home");
    assertEquals(home.resolve("evals").resolve(out.scope().runId()).resolve("home"), evalHome);
    List<LedgerEntry> calls = entries(evalHome, Ledgers::ho1, "TOOL_CALL");
    assertEquals(2, calls.size());
    for (LedgerEntry e : calls) {
      assertEquals(ToolReplay.ORIGIN, e.metaText("origin"), "the ledger says the call was replayed: " + e.metadata());
    }
    assertEquals(ToolReplay.UNRECORDED, calls.stream().filter(e -> e.metaText("session_id").equals(c2.sessionId()))
        .findFirst().orElseThrow().metaText("error_code"));
    List<LedgerEntry> starts = entries(evalHome, Ledgers::hot, "SESSION_START");
    assertEquals(2, starts.size());
    starts.forEach(s -> assertEquals(EvalScope.TENANT, s.metaText("tenant"), s.metadata().toString()));
    entries(evalHome, Ledgers::hot, "EXCHANGE").forEach(x -> assertEquals(EvalScope.TENANT, x.metaText("tenant")));
    assertEquals(2, entries(evalHome, Ledgers::hot, "SESSION_END").size(), "each case's session was ended");
  }

  @Test
  void aCaseOfAnAgentClassTheEvalWorkerLacks_isARunErrorNamingIt_andTheOthersRun() throws Exception {
    EvalCase unknown = new EvalCase("nope", new CaseInput("hello", "NOPE", "default", "SES-00000000", 1, null),
        null, List.of(), Expectations.NONE);
    Path suite = suite(unknown, evalCase("ok", "hello", List.of(), Expectations.NONE));
    EvalRunner.Outcome out = run(suite, EvalRunOptions.defaults(), new ArrayList<>());
    String error = out.runs().get(0).error();
    assertTrue(error != null && error.contains("NOPE"), String.valueOf(error));
    assertNull(out.runs().get(1).error(), out.runs().get(1).error());
  }

  @Test
  void theSameRunStartedAgain_runsNoFinishedCaseTwice() throws Exception {
    Path suite = suite(evalCase("c1", "hello", List.of(), Expectations.NONE),
        evalCase("c2", PACKAGES, List.of(), Expectations.NONE));
    EvalRunner.Outcome first = run(suite, EvalRunOptions.defaults(), new ArrayList<>());
    Path evalHome = first.scope().root().resolve("home");
    int exchanges = entries(evalHome, Ledgers::hot, "EXCHANGE").size();
    assertTrue(exchanges >= 4, "two turns ran: " + exchanges);

    List<String> progress = new ArrayList<>();
    EvalRunner.Outcome again = run(suite, EvalRunOptions.defaults(), progress);

    assertEquals(first.scope().runId(), again.scope().runId(), "the same suite and options are the same run");
    assertEquals(first.runs(), again.runs(), "both cases reported, as they ran");
    assertEquals(exchanges, entries(evalHome, Ledgers::hot, "EXCHANGE").size(), "no model call ran again");
    assertEquals(2, progress.stream().filter(l -> l.contains("not run again")).count(), String.join("\n", progress));
    EvalRunOptions live = new EvalRunOptions(Optional.empty(), Optional.empty(), Optional.empty(), 1, true);
    assertFalse(EvalScope.of(env(), SuiteFiles.read(suite), live).runId().equals(first.scope().runId()),
        "live tools are another run");
  }

  @Test
  void aCaseStartedByAnEarlierProcessWhoseSessionTheServiceLost_startsOverInTheNextAttemptsSession()
      throws Exception {
    Path suite = suite(evalCase("c1", "hello", List.of(), Expectations.NONE));
    EvalScope scope = EvalScope.of(env(), SuiteFiles.read(suite), EvalRunOptions.defaults());
    new EvalRunStore(scope.root()).started("c1", 1); // attempt 0 started, then its embedded service died with it

    EvalRunner.Outcome out = run(suite, EvalRunOptions.defaults(), new ArrayList<>());

    assertEquals(scope.sessionId("c1", 1), out.runs().get(0).sessionId());
    assertNull(out.runs().get(0).error(), out.runs().get(0).error());
    assertEquals(2, new EvalRunStore(scope.root()).attempts("c1"));
  }

  @Test
  void liveTools_runTheToolForReal() throws Exception {
    Path suite = suite(evalCase("c1", PACKAGES, List.of(new RecordedToolCall("list_packages", Json.object(),
        TextNode.valueOf(RECORDED_PACKAGES), false)), Expectations.NONE));
    EvalRunner.Outcome out = run(suite, new EvalRunOptions(Optional.empty(), Optional.empty(), Optional.empty(), 1,
        true), new ArrayList<>());
    CaseRun c1 = out.runs().get(0);
    assertTrue(c1.replayedTools().isEmpty());
    assertFalse(c1.toolsCalled().get(0).result().asText().contains("recorded-pkg"), c1.toolsCalled().toString());
    assertEquals("builtin", entries(out.scope().root().resolve("home"), Ledgers::ho1, "TOOL_CALL").get(0)
        .metaText("origin"));
  }

  @Test
  void theJudge_isAWorkOrderOnThePlane_offlineByItsFixedRule() throws Exception {
    Path suite = suite(
        evalCase("pass", "hello", List.of(), new Expectations(null, null, null, null, null, null, null, null,
            "The reply greets the user: it says \"hello\".")),
        evalCase("fail", "hello", List.of(), new Expectations(null, null, null, null, null, null, null, null,
            "The reply says \"bonjour\".")));
    EvalRunner.Outcome out = run(suite, EvalRunOptions.defaults(), new ArrayList<>());
    JudgeVerdict pass = out.runs().get(0).judge();
    JudgeVerdict fail = out.runs().get(1).judge();
    assertTrue(pass.pass(), pass.reason());
    assertFalse(fail.pass(), fail.reason());
    assertTrue(fail.reason().contains("\"bonjour\""), fail.reason());
    Path evalHome = out.scope().root().resolve("home");
    List<LedgerEntry> judged = entries(evalHome, Ledgers::hot, "EXCHANGE").stream()
        .filter(x -> "PRC-JUDGE-001".equals(x.metaText("contract_id"))).toList();
    assertEquals(2, judged.size(), "one governed, recorded model call per judged case");
    judged.forEach(x -> assertEquals(EvalScope.TENANT, x.metaText("tenant")));
    assertEquals(2, entries(evalHome, Ledgers::ho1, "WO_COMPLETED").stream()
        .filter(x -> x.metadata().toString().contains("PRC-JUDGE-001")).count());
  }
}
