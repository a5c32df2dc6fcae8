package cp.e2e;

import static cp.e2e.ScriptedModel.answers;
import static cp.e2e.ScriptedModel.callsTool;
import static cp.e2e.ScriptedModel.says;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.ContentBlock;
import cp.model.PromptRequest;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WoErrorCode;
import cp.tools.ToolErrorCodes;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a model writes, through a whole session on the real runtime (HO2, HO1, the gateway, the
 * real tool dispatcher with the built-in tools): answers that are not JSON, JSON in a code fence,
 * the wrong schema, nothing at all, an unknown tool, tool arguments that break the tool's schema,
 * and a tool loop that never ends. Bad output is the quality gate's business (retry with
 * feedback, then escalate), a bad tool call becomes an error result the model can read, a loop
 * is stopped by the work order's turn limit; the user always gets a TurnResult, nothing degrades.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModelOutputEndToEndTest {
  /** ADMIN's quality_gate.max_retries: three synthesize attempts in all. */
  static final int ATTEMPTS = 3;
  /** ADMIN's budget.wo_turn_limit: LLM rounds per work order. */
  static final int WO_ROUNDS = 5;

  private final ScriptedModel model = new ScriptedModel();
  private PlaneFixture plane;

  @BeforeAll
  void startPlane(@TempDir Path home) {
    plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), model, PlaneRuntime::builtinTools);
  }

  @AfterAll
  void stopPlane() {
    if (plane != null) {
      plane.close();
    }
  }

  @BeforeEach
  void resetModel() {
    model.reset();
  }

  private TurnResult turn() {
    String sid = plane.client.startSession("ADMIN");
    return plane.client.turn(sid, "what is installed?");
  }

  @Test
  void answersThatAreNotJson_areRejectedByTheGate_retriedWithFeedback_thenEscalated() {
    model.thenForever(says("Sure! The installed packages are the usual ones."));

    TurnResult r = turn();

    assertEquals(TurnOutcome.ESCALATED, r.outcome(), r::toString);
    assertFalse(r.qualityGatePassed());
    assertTrue(r.response().startsWith("I could not produce an answer that passed the quality gate after 3 attempts"),
        r.response());
    assertEquals(ATTEMPTS, model.synthesizeRequests.size());
    List<LedgerEntry> failed = ho1(r.sessionId(), "WO_FAILED");
    assertEquals(ATTEMPTS, failed.size());
    failed.forEach(e -> assertEquals(WoErrorCode.OUTPUT_SCHEMA_INVALID, e.metaText("error_code"), e::toString));
    assertEquals(1, ho2(r.sessionId(), "ESCALATION").size(), "the escalation is on record");
    assertTrue(userPrompt(model.synthesizeRequests.get(1)).contains("retry_feedback"),
        "the retry is told why the first answer was rejected");
    assertNoDegradation(r.sessionId());
  }

  @Test
  void jsonInACodeFence_isAccepted() {
    model.synthesize(says("```json\n{\"response_text\": \"Fenced, but fine.\"}\n```"));

    TurnResult r = turn();

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    assertEquals("Fenced, but fine.", r.response());
    assertEquals(1, model.synthesizeRequests.size());
  }

  @Test
  void wrongSchemaThenNothing_thenARightAnswer_succeedsOnTheThirdAttempt() {
    model.synthesize(says("{\"answer\": \"right words, wrong field\"}"), says(""), answers("Third time lucky."));

    TurnResult r = turn();

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    assertEquals("Third time lucky.", r.response());
    assertEquals(ATTEMPTS, r.woChainSummary().size() - 1, "classify plus three synthesize work orders");
    List<LedgerEntry> failed = ho1(r.sessionId(), "WO_FAILED");
    assertEquals(2, failed.size());
    assertTrue(failed.get(0).metaText("error_message").contains("response_text"),
        "the schema violation is named: " + failed.get(0).metaText("error_message"));
    assertEquals(ATTEMPTS, ho2(r.sessionId(), "WO_QUALITY_GATE").size(), "each attempt went through the gate");
    assertNoDegradation(r.sessionId());
  }

  @Test
  void anUnknownTool_isRefusedAsAToolResult_andTheModelAnswersInTheNextRound() {
    model.synthesize(callsTool("delete_everything", "{}"), answers("I cannot delete anything."));

    TurnResult r = turn();

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    LedgerEntry call = single(ho1(r.sessionId(), "TOOL_CALL"));
    assertEquals("delete_everything", call.metaText("tool_id"));
    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, call.metaText("error_code"), call::toString);
    ContentBlock result = lastToolResult(model.synthesizeRequests.get(1));
    assertTrue(Boolean.TRUE.equals(result.isError()), "the model is told the call failed: " + result);
    assertTrue(result.content().contains("gate_check") && result.content().contains("list_packages"),
        "and which tools it has: " + result.content());
  }

  @Test
  void toolArgumentsBreakingTheSchema_areRefusedNamingEveryViolation_andTheModelRecovers() {
    model.synthesize(callsTool("read_file", "{\"path\": 42, \"mode\": \"rw\"}"), answers("I could not read it."));

    TurnResult r = turn();

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    LedgerEntry call = single(ho1(r.sessionId(), "TOOL_CALL"));
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, call.metaText("error_code"), call::toString);
    String told = lastToolResult(model.synthesizeRequests.get(1)).content();
    assertTrue(told.contains("path") && told.contains("mode"), "both violations are reported: " + told);
  }

  @Test
  void aToolLoopThatNeverEnds_isStoppedByTheTurnLimit_everyAttempt_andTheTurnEscalates() {
    model.thenForever(callsTool("list_packages", "{}"));

    TurnResult r = turn();

    assertEquals(TurnOutcome.ESCALATED, r.outcome(), r::toString);
    assertEquals(ATTEMPTS * WO_ROUNDS, model.synthesizeRequests.size(), "each attempt stops after its rounds");
    List<LedgerEntry> failed = ho1(r.sessionId(), "WO_FAILED");
    assertEquals(ATTEMPTS, failed.size());
    failed.forEach(e -> assertEquals(WoErrorCode.TURN_LIMIT_EXCEEDED, e.metaText("error_code"), e::toString));
    assertEquals(ATTEMPTS * (WO_ROUNDS - 1), ho1(r.sessionId(), "TOOL_CALL").size(),
        "the tools asked for in a work order's last round are not run");
    assertNoDegradation(r.sessionId());
  }

  private LedgerStream hot() {
    return plane.runtime.ledgers().hot();
  }

  private List<LedgerEntry> ho1(String sid, String type) {
    return plane.runtime.ledgers().ho1().bySession(sid).stream().filter(e -> e.eventType().equals(type)).toList();
  }

  private List<LedgerEntry> ho2(String sid, String type) {
    return plane.runtime.ledgers().ho2("ADMIN").bySession(sid).stream().filter(e -> e.eventType().equals(type))
        .toList();
  }

  private void assertNoDegradation(String sid) {
    assertEquals(0, hot().bySession(sid).stream().filter(e -> e.eventType().equals("DEGRADATION")).count());
  }

  private static LedgerEntry single(List<LedgerEntry> entries) {
    assertEquals(1, entries.size(), entries::toString);
    return entries.get(0);
  }

  private static String userPrompt(PromptRequest r) {
    return r.messages().get(0).text();
  }

  private static ContentBlock lastToolResult(PromptRequest r) {
    var last = r.messages().get(r.messages().size() - 1);
    return last.content().stream().filter(ContentBlock::isToolResult).reduce((a, b) -> b).orElseThrow();
  }
}
