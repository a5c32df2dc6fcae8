package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ExpectationCheckerTest {
  private final ExpectationChecker checker = new ExpectationChecker();

  static EvalCase weatherCase(Expectations expect) {
    return SuiteFilesTest.sample().cases().get(0).withExpect(expect);
  }

  static CaseRun run(String reply, List<String> tools, Double cost, long in, long out, JudgeVerdict judge) {
    return new CaseRun("SES-1#2", "SES-eval0001", reply, null, "success", true, true,
        tools.stream().map(t -> new RecordedToolCall(t, Json.object(), null, false)).toList(), tools, List.of(), cost,
        in, out, 420, null, judge);
  }

  private static Map<String, Boolean> outcome(List<ExpectationResult> rs) {
    return rs.stream().collect(Collectors.toMap(ExpectationResult::name, ExpectationResult::passed));
  }

  @Test
  void theFrozenDefaults_passOnARunLikeTheRecord() {
    EvalCase c = weatherCase(SuiteFreezer.defaultExpectations(SuiteFilesTest.sample().cases().get(0).recorded()));
    List<ExpectationResult> rs = checker.check(c, run("Rain, 4 °C.", List.of("get_weather"), 0.001, 100, 20, null));
    assertEquals(Map.of("schema_valid", true, "gate_passes", true, "tools", true), outcome(rs));
  }

  @Test
  void everyExpectation_passes_whenTheRunSatisfiesIt() {
    EvalCase c = weatherCase(SuiteFilesTest.sample().cases().get(0).expect());
    List<ExpectationResult> rs = checker.check(c, run("Rain, 4 °C.", List.of("get_weather"), 0.01, 1500, 400,
        new JudgeVerdict(true, "mentions rain", 0.0001)));
    assertEquals(List.of("schema_valid", "gate_passes", "tools", "contains", "not_contains", "matches",
        "max_cost_usd", "max_tokens", "judge"), rs.stream().map(ExpectationResult::name).toList());
    assertTrue(rs.stream().allMatch(ExpectationResult::passed), rs::toString);
  }

  @Test
  void everyExpectation_fails_withADetailSayingWhat() {
    EvalCase c = weatherCase(SuiteFilesTest.sample().cases().get(0).expect());
    CaseRun bad = new CaseRun("SES-1#2", "SES-eval0001", "Expect snow tomorrow.", null, "escalated", false, false,
        List.of(new RecordedToolCall("read_file", null, null, false)), List.of(), List.of("read_file"), 0.2, 1900, 200,
        900, null, new JudgeVerdict(false, "says snow, not rain", 0.0002));
    List<ExpectationResult> rs = checker.check(c, bad);
    assertTrue(rs.stream().noneMatch(ExpectationResult::passed), rs::toString);
    Map<String, String> detail = rs.stream().collect(Collectors.toMap(ExpectationResult::name, ExpectationResult::detail));
    assertEquals("expected [get_weather], ran [read_file]", detail.get("tools"));
    assertEquals("not in the reply: \"Rain\"", detail.get("contains"));
    assertEquals("in the reply: \"snow\"", detail.get("not_contains"));
    assertEquals("the reply does not match \"\\d+ °C\"", detail.get("matches"));
    assertEquals("cost $0.2000, at most $0.0500", detail.get("max_cost_usd"));
    assertEquals("2100 tokens (1900 in / 200 out), at most 2000", detail.get("max_tokens"));
    assertEquals("failed: says snow, not rain", detail.get("judge"));
  }

  @Test
  void judgeAskedFor_butNoVerdict_fails_andSaysSo() {
    EvalCase c = weatherCase(new Expectations(null, null, null, null, null, null, null, null, "Says it rains"));
    List<ExpectationResult> rs = checker.check(c, run("Rain", List.of(), 0.0, 1, 1, null));
    assertEquals(1, rs.size());
    assertTrue(!rs.get(0).passed() && rs.get(0).detail().contains("no verdict"), rs::toString);
  }

  @Test
  void unknownCost_failsAMaxCost_failedRun_isAResult() {
    EvalCase c = weatherCase(new Expectations(null, null, null, null, null, null, 1.0, null, null));
    CaseRun failed = new CaseRun("SES-1#2", null, "", null, "error", false, false, null, null, null, null, 0, 0, 10,
        "the turn could not start: budget_exhausted", null);
    List<ExpectationResult> rs = checker.check(c, failed);
    assertEquals(Map.of("run", false, "max_cost_usd", false), outcome(rs));
    assertTrue(rs.get(0).detail().contains("budget_exhausted"));
  }

  @Test
  void aBadRegex_inACaseBuiltInCode_isAUsageErrorNamingTheCase() {
    EvalCase c = weatherCase(new Expectations(null, null, null, null, null, List.of("[unclosed"), null, null, null));
    var e = assertThrows(IllegalArgumentException.class, () -> checker.check(c, run("x", List.of(), 0.0, 0, 0, null)));
    assertTrue(e.getMessage().startsWith("case SES-1#2: expect.matches \"[unclosed\""), e.getMessage());
  }
}
