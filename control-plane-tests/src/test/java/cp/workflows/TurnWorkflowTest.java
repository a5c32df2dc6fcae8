package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.AgentProfile;
import cp.model.AttentionRequest;
import cp.model.ContractIds;
import cp.model.EntryRef;
import cp.model.Ho2Event;
import cp.model.Json;
import cp.model.LlmRoundRequest;
import cp.model.TurnInput;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HO2's decisions (seed 001) with scripted activities on the Temporal test service. */
class TurnWorkflowTest {
  FakeActivities.Ho1 ho1;
  FakeActivities.Ho2 ho2;
  FakeActivities.Session session;
  WorkflowHarness h;
  AgentProfile profile = FakeActivities.profile(100_000, 50);

  @BeforeEach
  void setUp() {
    ho1 = new FakeActivities.Ho1();
    ho2 = new FakeActivities.Ho2();
    session = new FakeActivities.Session();
    h = new WorkflowHarness(ho1, ho2, session);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private TurnResult turn(String text) {
    return h.runTurn("SES-0000abcd/turn-0001", new TurnInput("SES-0000abcd", 1, text, 100_000, profile));
  }

  /** The failure at the bottom of a failed workflow's causes. */
  private static ApplicationFailure refusal(WorkflowFailedException e) {
    Throwable t = e;
    ApplicationFailure af = null;
    for (; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        af = a;
      }
    }
    assertNotNull(af, "no ApplicationFailure in " + e);
    return af;
  }

  /**
   * A turn's input carries the agent's profile: a client that started a turn itself could run it
   * on a profile of its own making (here: no approvals, a billion tokens). Only its session may.
   */
  @Test
  void aTurnStartedDirectlyByAClient_isRefusedBeforeItRunsAnything() {
    AgentProfile forged = FakeActivities.profile(1_000_000_000L, 50);
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> h.turnStub("SES-0000abcd/turn-0001")
        .run(new TurnInput("SES-0000abcd", 1, "write the file", 1_000_000_000L, forged)));
    ApplicationFailure af = refusal(e);
    assertEquals("start_refused", af.getType());
    assertTrue(af.getOriginalMessage().contains("started directly, by a client: refused, nothing ran"),
        af.getOriginalMessage());
    assertEquals(0, ho1.rounds.size(), "no model call");
    assertTrue(ho2.events.isEmpty(), "nothing recorded");
  }

  @Test
  void aTurnStartedByAWorkflowThatIsNotItsSession_isRefused_whileItsSessionsChildRuns() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> h.client.newWorkflowStub(
        TurnParentWorkflow.class, io.temporal.client.WorkflowOptions.newBuilder().setTaskQueue(WorkflowHarness.QUEUE)
            .setWorkflowId("SES-99999999").build())
        .run("SES-0000abcd/turn-0001", new TurnInput("SES-0000abcd", 1, "hello", 100_000, profile)));
    assertTrue(refusal(e).getOriginalMessage().contains("by workflow SES-99999999"), refusal(e).getOriginalMessage());
    assertEquals(0, ho1.rounds.size(), "no model call");

    assertEquals(TurnOutcome.SUCCESS, turn("hello").outcome(), "the same turn as its session's child runs");
  }

  @Test
  void hello_classifiesThenSynthesizes_andPassesTheGate() {
    TurnResult r = turn("hello");
    assertEquals(TurnOutcome.SUCCESS, r.outcome());
    assertTrue(r.qualityGatePassed());
    assertEquals("Hello! How can I help?", r.response());
    assertEquals(List.of("classify", "synthesize"), r.woChainSummary().stream().map(w -> w.woType()).toList());
    assertEquals(List.of("completed", "completed"), r.woChainSummary().stream().map(w -> w.state()).toList());
    assertEquals("WO-0000abcd-0001-01", r.woChainSummary().get(0).woId());
    assertEquals(2, r.exchangeEntryIds().size());
    assertEquals(200, r.costSummary().totalTokens());
    assertNotNull(r.traceHash());
    assertEquals(1, ho2.attention.size());
  }

  @Test
  void hello_writesTheHo2EventsOfSeed001_once() {
    turn("hello");
    assertEquals(List.of("WO_PLANNED", "WO_DISPATCHED", "WO_PLANNED", "WO_DISPATCHED", "WO_QUALITY_GATE",
        "WO_CHAIN_COMPLETE"), ho2.types());
    Ho2Event gate = ho2.events.get(4);
    assertEquals("ACCEPT", gate.decision());
    assertTrue(gate.withTraceHash());
    assertTrue(ho2.events.get(5).withTraceHash());
    long distinctKeys = ho2.events.stream().map(Ho2Event::key).distinct().count();
    assertEquals(ho2.events.size(), distinctKeys, "every event has its own idempotency key");
  }

  @Test
  void plannedWorkOrders_carryConstraintsFromTheProfile() {
    turn("hello");
    WorkOrder classify = Json.convert(ho2.events.get(0).metadata().get("work_order"), WorkOrder.class);
    assertEquals(WoType.CLASSIFY, classify.woType());
    assertEquals(WoState.PLANNED, classify.state());
    assertEquals(ContractIds.CLASSIFY, classify.constraints().promptContractId());
    assertEquals(1, classify.constraints().turnLimit());
    assertTrue(classify.constraints().allowedTools().isEmpty());
    WorkOrder synth = Json.convert(ho2.events.get(2).metadata().get("work_order"), WorkOrder.class);
    assertEquals(profile.toolIds(), synth.constraints().allowedTools());
    assertEquals(profile.woTurnLimit(), synth.constraints().turnLimit());
    assertEquals(profile.woTokenBudget(), synth.constraints().tokenBudget());
    assertEquals("LED-ctx-1", synth.inputContext().at("/assembled_context/context_ref").asText());
    assertEquals("greeting", synth.inputContext().at("/prior_results/0/speech_act").asText());
  }

  @Test
  void toolLoop_runsTheToolAndPassesReferencesToTheNextRound() {
    AtomicInteger n = new AtomicInteger();
    ho1.synthesize = r -> n.incrementAndGet() == 1
        ? ho1.toolUse("list_packages", Json.object())
        : ho1.text("{\"response_text\":\"3 packages\"}");
    TurnResult r = turn("what packages are installed?");
    assertEquals(TurnOutcome.SUCCESS, r.outcome());
    assertEquals(1, ho1.tools.size());
    assertEquals("list_packages", ho1.tools.get(0).toolUse().name());
    assertEquals(1, r.toolCalls().size());
    assertEquals("ok", r.toolCalls().get(0).status());
    LlmRoundRequest second = ho1.rounds.get(2);
    assertEquals(2, second.round());
    assertEquals(List.of("hot", "ho1"), second.transcript().stream().map(EntryRef::tier).toList());
    assertEquals(3, r.exchangeEntryIds().size());
    assertEquals(1, r.woChainSummary().get(1).toolCalls());
  }

  @Test
  void toolUseInTheLastAllowedRound_failsTheWoWithTurnLimitExceeded_withoutRunningTheTool() {
    ho1.synthesize = r -> ho1.toolUse("read_file", Json.object().put("path", "x"));
    TurnResult r = turn("loop forever");
    assertEquals(TurnOutcome.ESCALATED, r.outcome());
    assertFalse(r.qualityGatePassed());
    List<WorkOrder> synths = ho1.finished.stream().filter(w -> w.woType() == WoType.SYNTHESIZE).toList();
    assertEquals(3, synths.size(), "first attempt plus max_retries=2");
    synths.forEach(w -> assertEquals("turn_limit_exceeded", w.error().code()));
    // Each WO: 3 rounds, tools after rounds 1 and 2 only.
    assertEquals(3 * 2, ho1.tools.size());
    assertTrue(ho2.types().contains("ESCALATION"));
  }

  @Test
  void gateRejection_retriesWithTemperatureZeroAndFeedback_thenAccepts() {
    AtomicInteger n = new AtomicInteger();
    ho1.synthesize = r -> n.incrementAndGet() == 1
        ? ho1.text("{\"response_text\":\"   \"}")
        : ho1.text("{\"response_text\":\"a real answer\"}");
    TurnResult r = turn("question?");
    assertEquals(TurnOutcome.SUCCESS, r.outcome());
    assertEquals("a real answer", r.response());
    List<LlmRoundRequest> synth = ho1.rounds.stream().filter(x -> x.contractId().equals(ContractIds.SYNTHESIZE)).toList();
    assertEquals(java.util.Optional.empty(), synth.get(0).overrides().temperature());
    assertEquals(java.util.Optional.of(0.0), synth.get(1).overrides().temperature());
    List<Ho2Event> gates = ho2.events.stream().filter(e -> e.eventType().equals("WO_QUALITY_GATE")).toList();
    assertEquals(List.of("REJECT", "ACCEPT"), gates.stream().map(Ho2Event::decision).toList());
    WorkOrder retry = Json.convert(ho2.events.stream().filter(e -> e.eventType().equals("WO_PLANNED")).toList().get(2)
        .metadata().get("work_order"), WorkOrder.class);
    assertEquals("response_text is blank", retry.inputContext().at("/retry_feedback/0").asText());
    assertEquals(3, r.woChainSummary().size());
  }

  @Test
  void everyAttemptRejected_escalatesAfterMaxRetries() {
    ho1.synthesize = r -> ho1.text("{\"no_text\":true}");
    TurnResult r = turn("question?");
    assertEquals(TurnOutcome.ESCALATED, r.outcome());
    assertFalse(r.qualityGatePassed());
    assertEquals("quality_gate_rejected", r.errorCode());
    assertEquals(profile.maxRetries() + 1, ho1.synthesizeRounds());
    assertTrue(r.response().contains("could not produce an answer"), r.response());
    List<String> types = ho2.types();
    assertEquals(1, types.stream().filter("ESCALATION"::equals).count());
    assertEquals("WO_CHAIN_COMPLETE", types.get(types.size() - 1));
  }

  @Test
  void tooLongAnswer_isRejectedByTheGate() {
    ho1.synthesize = r -> ho1.text("{\"response_text\":\"" + "x".repeat(profile.maxResponseChars() + 1) + "\"}");
    TurnResult r = turn("question?");
    assertEquals(TurnOutcome.ESCALATED, r.outcome());
    assertTrue(r.response().length() <= profile.maxResponseChars() + 1);
  }

  @Test
  void classifyJunk_fallsBackToAQuestionClassification_andStillAnswers() {
    ho1.classifyText = "not json at all";
    TurnResult r = turn("hmm");
    assertEquals(TurnOutcome.SUCCESS, r.outcome());
    assertEquals("failed", r.woChainSummary().get(0).state());
    WorkOrder synth = Json.convert(ho2.events.get(2).metadata().get("work_order"), WorkOrder.class);
    assertTrue(synth.inputContext().at("/classification/classification_failed").asBoolean());
  }

  @Test
  void gatewayDown_failsTheTurnWorkflow_soTheSessionCanDegrade() {
    ho1.failGateway = true;
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> turn("hello"));
    // The session sees the turn's failure as its child's (the turn runs as its session's child).
    assertTrue(e.getCause() instanceof io.temporal.failure.ChildWorkflowFailure, String.valueOf(e.getCause()));
    Throwable cause = e.getCause().getCause();
    assertTrue(cause instanceof ApplicationFailure, String.valueOf(cause));
    assertEquals(TurnWorkflowImpl.HO2_FAILED, ((ApplicationFailure) cause).getType());
    assertTrue(cause.getMessage().contains("gateway_error"), cause.getMessage());
  }

  @Test
  void smallSessionBudget_endsTheTurnWithBudgetExhausted_beforeOverspending() {
    ho1.tokensPerCall = 150;
    TurnResult r = h.runTurn("SES-0000abcd/turn-0001", new TurnInput("SES-0000abcd", 1, "hello", 150, profile));
    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertEquals("budget_exhausted", r.errorCode());
    assertEquals(0, ho1.synthesizeRounds(), "no synthesize call once the budget is spent");
    assertEquals(150, r.costSummary().totalTokens());
  }

  @Test
  void workOrderBudget_isTheSmallerOfAgentCapAndSessionRemainder() {
    TurnResult r = h.runTurn("SES-0000abcd/turn-0001", new TurnInput("SES-0000abcd", 1, "hello", 1000, profile));
    assertEquals(TurnOutcome.SUCCESS, r.outcome());
    WorkOrder classify = Json.convert(ho2.events.get(0).metadata().get("work_order"), WorkOrder.class);
    assertEquals(1000, classify.constraints().tokenBudget());
    WorkOrder synth = Json.convert(ho2.events.get(2).metadata().get("work_order"), WorkOrder.class);
    assertEquals(900, synth.constraints().tokenBudget());
  }

  // Seed 001 Q3 (the handle_turn("hello") flow) and seed 003 test 5 (attention called with the
  // right request): what each step is given, and a result that names its session and turn.
  @Test
  void hello_eachStepIsGivenWhatTheFlowDescribes() {
    TurnResult r = turn("hello");
    WorkOrder classify = Json.convert(ho2.events.get(0).metadata().get("work_order"), WorkOrder.class);
    assertEquals("hello", classify.inputContext().get("user_input").asText());
    assertEquals(new AttentionRequest("SES-0000abcd", "ADMIN", "ATT-ADMIN-001", 1, "hello"), ho2.attention.get(0));
    WorkOrder synth = Json.convert(ho2.events.get(2).metadata().get("work_order"), WorkOrder.class);
    assertEquals("hello", synth.inputContext().get("user_input").asText());
    assertEquals("greeting", synth.inputContext().at("/classification/speech_act").asText());
    assertTrue(synth.inputContext().at("/acceptance_criteria/must_include_response_text").asBoolean());
    assertEquals(profile.maxResponseChars(), synth.inputContext().at("/acceptance_criteria/max_response_chars").asInt());
    assertEquals("ctxhash", synth.inputContext().at("/assembled_context/context_hash").asText());
    assertFalse(synth.inputContext().at("/assembled_context").has("text"), "the work order carries a reference");
    assertEquals("SES-0000abcd", r.sessionId());
    assertEquals(1, r.turn());
  }

  // Issue 11 item 2: a work order's own cap (wo_token_budget) running out is not the session's
  // budget running out; the message says which budget it was, how big, and what to do.
  @Test
  void workOrderCapSpent_saysItWasTheWorkOrdersBudget_notTheSessions() {
    profile = new AgentProfile("ADMIN", "admin-001", "FMWK-005", "ATT-ADMIN-001", List.of("list_packages"), 200_000,
        50, 7200, 1800, 150, 5, 120, 1000, 2, 200);
    ho1.synthesize = r -> ho1.toolUse("list_packages", Json.object());
    TurnResult r = h.runTurn("SES-0000abcd/turn-0001", new TurnInput("SES-0000abcd", 1, "hello", 200_000,
        profile));
    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertEquals("budget_exhausted", r.errorCode());
    assertFalse(r.response().contains("session's token budget is used up"), r.response());
    assertTrue(r.response().contains("budget.wo_token_budget") && r.response().contains("150"), r.response());
    long left = 200_000 - r.costSummary().totalTokens();
    assertTrue(r.response().contains(left + " of 200000"), "says what the session has left: " + r.response());
  }

  /**
   * Issue 20 §2: RESIDENT with 138 of 60,000 tokens left. The synthesize work order gets what the
   * session has left (138, not its own cap of 16,000), and its first call does not fit (the
   * gateway refuses it unsent, budget_exhausted): it is the session's budget that ran out, so the
   * message names it and never advises raising budget.wo_token_budget.
   */
  @Test
  void theSessionsBudgetRunningOutMidway_isNamed_notTheWorkOrders() {
    profile = new AgentProfile("RESIDENT", "resident-001", "FMWK-005", "ATT-RESIDENT-001", List.of(), 60_000, 20, 3600,
        900, 16_000, 3, 120, 32_000, 2, 200);
    ho1.tokensPerCall = 100;
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Refused("budget_exhausted", "the budget has " + r.tokenBudgetRemaining()
        + " tokens left and this call reserves about 5200 (prompt about 1104 + max_tokens 4096); it was not sent",
        "LED-rej", "fake-model");
    TurnResult r = h.runTurn("SES-0000abcd/turn-0001", new TurnInput("SES-0000abcd", 1, "hello", 238, profile));

    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertEquals("budget_exhausted", r.errorCode());
    WorkOrder synth = Json.convert(ho2.events.get(2).metadata().get("work_order"), WorkOrder.class);
    assertEquals(138, synth.constraints().tokenBudget(), "the work order got what the session had left");
    assertFalse(r.response().contains("wo_token_budget"), "the wrong budget's advice: " + r.response());
    assertTrue(r.response().contains("budget.session_token_limit = 60000") && r.response().contains("has 138 tokens"
        + " left"), r.response());
    assertTrue(r.response().contains("it was not sent"), "says why the call did not run: " + r.response());
  }
}
