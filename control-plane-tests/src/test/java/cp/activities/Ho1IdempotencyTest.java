package cp.activities;

import static cp.activities.ScriptedProvider.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.ContentBlock;
import cp.model.LlmRoundResult;
import cp.model.ToolCallResult;
import cp.model.WoState;
import cp.workflows.WorkOrderRunner.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Activities run at least once. When an HO1 activity did its work but Temporal never heard of
 * the completion, the retry (same workflow, run and activity id) must not pay for the model call
 * again, run the tool again, or write a second ledger line ({@link LostCompletions}).
 */
class Ho1IdempotencyTest {
  static final String ANSWER_JSON = "{\"response_text\":\"2 packages\"}";
  static Ho1Harness h;

  @TempDir Path home;
  ScriptedProvider provider;
  ToolLog tools;

  @BeforeAll
  static void startService() {
    h = Ho1Harness.start();
  }

  @AfterAll
  static void stopService() {
    h.close();
  }

  @BeforeEach
  void setUp() {
    provider = new ScriptedProvider()
        .thenTools(800, 30, use("toolu_01", "list_packages", "{}"))
        .thenText(ANSWER_JSON, 900, 40);
    tools = new ToolLog();
  }

  @AfterEach
  void closePlane() {
    h.closePlane();
  }

  private LostCompletions plane(int loseLlmRound, int loseToolRound) {
    return plane(loseLlmRound, loseToolRound, false);
  }

  private LostCompletions plane(int loseLlmRound, int loseToolRound, boolean loseFinish) {
    LostCompletions[] wrapper = new LostCompletions[1];
    h.plane(home, provider, tools,
        real -> wrapper[0] = new LostCompletions(real, loseLlmRound, loseToolRound, loseFinish));
    return wrapper[0];
  }

  @Test
  void retriedLlmRound_afterItsExchangeWasWritten_replaysItWithoutCallingTheProviderAgain() {
    LostCompletions ho1 = plane(1, 0);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    assertEquals(1, provider.requestsInRound(1), "round 1 reached the provider once, though it ran twice");
    assertEquals(1, provider.requestsInRound(2));
    List<LostCompletions.Attempt<LlmRoundResult>> round1 = ho1.llmAttempts(1);
    assertEquals(List.of(1, 2), round1.stream().map(LostCompletions.Attempt::attempt).toList());
    var first = assertInstanceOf(LlmRoundResult.ToolCalls.class, round1.get(0).result());
    var retry = assertInstanceOf(LlmRoundResult.ToolCalls.class, round1.get(1).result());
    assertFalse(first.exchange().replayed());
    assertTrue(retry.exchange().replayed(), "the retry was answered from the EXCHANGE record");
    assertEquals(first.exchange().entryId(), retry.exchange().entryId());
    assertEquals(first.toolUses(), retry.toolUses());

    assertEquals(2, h.successfulExchanges().size());
    assertEquals(2, h.hot("EXCHANGE").size());
    List<LedgerEntry> llmCalls = h.ho1("LLM_CALL");
    assertEquals(List.of(1, 2), llmCalls.stream().map(e -> e.meta("round").asInt()).toList(),
        "one LLM_CALL per round, none for the retry");
    assertEquals(Map.of("LLM_CALL", 2L, "TOOL_CALL", 1L, "WO_COMPLETED", 1L, "WO_EXECUTING", 1L), h.ho1Counts());
    assertEquals(2, out.workOrder().cost().llmCalls());
    assertEquals(800 + 900, out.workOrder().cost().inputTokens(), "the replayed round is debited once");
  }

  @Test
  void retriedFinalRound_returnsTheRecordedAnswer_andTheWorkOrderCompletesWithIt() {
    LostCompletions ho1 = plane(2, 0);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    assertEquals("2 packages", out.workOrder().outputResult().path("response_text").asText());
    assertEquals(2, provider.requests.size());
    var retried = assertInstanceOf(LlmRoundResult.Finished.class, ho1.llmAttempts(2).get(1).result());
    assertTrue(retried.answer().orElseThrow().replayed());
    assertEquals(2, h.ho1("LLM_CALL").size());
    assertEquals(2, h.successfulExchanges().size());
  }

  @Test
  void retriedToolCall_afterItsToolCallWasRecorded_returnsTheRecordWithoutRunningTheToolAgain() {
    LostCompletions ho1 = plane(0, 1);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    assertEquals(List.of("list_packages"), tools.toolIds(), "the tool ran once, though its activity ran twice");
    List<LostCompletions.Attempt<ToolCallResult>> attempts = ho1.toolAttempts(1);
    assertEquals(List.of(1, 2), attempts.stream().map(LostCompletions.Attempt::attempt).toList());
    assertEquals(attempts.get(0).result(), attempts.get(1).result(), "the retry returns the recorded result");
    assertEquals(1, h.ho1("TOOL_CALL").size());
    assertEquals(List.of(ContentBlock.toolResult("toolu_01", ToolLog.PACKAGES, false)),
        provider.requests.get(1).messages().get(2).content(), "the model reads the one result once");
    assertEquals(1, out.workOrder().cost().toolCalls());
  }

  @Test
  void retriedFinalRound_finishesWithTheRecordedCompletion_writingOneWoCompleted() {
    LostCompletions ho1 = plane(2, 0);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    List<LostCompletions.Attempt<LlmRoundResult>> round2 = ho1.llmAttempts(2);
    assertEquals(2, round2.size(), "the final round ran twice");
    assertEquals(((LlmRoundResult.Finished) round2.get(0).result()).outcome(),
        ((LlmRoundResult.Finished) round2.get(1).result()).outcome(),
        "the retry finishes the work order as the first attempt did, completion time included");
    List<LedgerEntry> done = h.ho1("WO_COMPLETED");
    assertEquals(1, done.size());
    assertEquals(done.get(0).metaText("completed_at"), out.workOrder().completedAt());
    assertEquals(0, ho1.finishAttempts.size(), "a lean work order needs no finish activity");
  }

  @Test
  void retriedFinish_returnsTheWorkOrderItRecorded_notANewCompletionTime() {
    LostCompletions ho1 = plane(0, 0, true);

    Outcome out = h.runClassic(WorkOrders.synthesize("what packages are installed?"));

    assertEquals(2, ho1.finishAttempts.size(), "finish ran twice");
    List<LedgerEntry> done = h.ho1("WO_COMPLETED");
    assertEquals(1, done.size());
    assertEquals(done.get(0).metaText("completed_at"), out.workOrder().completedAt(),
        "HO2 gets the work order HO1m recorded");
    assertEquals(ho1.finishAttempts.get(0).result(), ho1.finishAttempts.get(1).result());
  }
}
