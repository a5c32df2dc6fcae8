package cp.activities;

import static cp.activities.ScriptedProvider.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.Catalog;
import cp.contracts.PromptContract;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.TokenEstimate;
import cp.ledger.LedgerEntry;
import cp.model.ContentBlock;
import cp.model.IllegalTransitionException;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import cp.model.WoConstraints;
import cp.model.WoCost;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import cp.tools.ToolResult;
import cp.workflows.WorkOrderRunner.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's test plan for the HO1 executor, translated to this design: the real HO1
 * activities (contract, gateway, tool loop, ledgers) run through {@code WorkOrderRunner} on a
 * Temporal test service, with a scripted provider that records every request it receives and a
 * recording tool executor. Each test names the seed test it stands for; the loader-level
 * halves of the contract tests (load by id, schema, bad contract file) live in
 * {@code cp.contracts.ContractLoaderTest}, so here they are checked where HO1 uses them.
 *
 * <p>One Temporal test service serves the class; every test gets its own plane root, and after
 * every test each ledger's hash chain must verify.
 */
class Ho1ExecutorTest {
  static final String CLASSIFY_JSON = "{\"speech_act\":\"greeting\",\"ambiguity\":\"low\"}";
  static final String ANSWER_JSON = "{\"response_text\":\"There are 2 packages installed.\"}";

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
  void openPlane() {
    provider = new ScriptedProvider();
    tools = new ToolLog();
    h.plane(home, provider, tools);
  }

  /** Every ledger's chain must verify after every test. */
  @AfterEach
  void closePlane() {
    h.closePlane();
  }

  // ------------------------------------------------------------------ execute flow (seed 1-8)

  @Test
  void classifyWorkOrder_completesWithTheContractValidClassification() { // seed 1
    provider.thenText(CLASSIFY_JSON, 120, 30);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals(Json.parse(CLASSIFY_JSON), wo.outputResult());
    PromptRequest sent = provider.requests.get(0);
    assertEquals(WorkOrders.CLASSIFY, sent.contractId());
    assertEquals("PRM-CLASSIFY-001", sent.promptPackId());
    assertEquals("ho1", sent.tier());
    assertTrue(sent.structuredOutput());
    assertEquals(List.of(), sent.tools(), "a classify WO offers no tools");
    assertEquals(1, sent.messages().size());
    assertEquals(Json.object().put("user_input", "hello"), inputBlock(sent.messages().get(0).text()));
  }

  @Test
  void synthesizeWorkOrder_completesUnderItsOwnContractAndInputSchema() { // seed 2
    provider.thenText(ANSWER_JSON, 900, 40);

    WorkOrder wo = h.run(WorkOrders.synthesize("how many packages?")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals("There are 2 packages installed.", wo.outputResult().path("response_text").asText());
    PromptRequest sent = provider.requests.get(0);
    assertEquals(WorkOrders.SYNTHESIZE, sent.contractId());
    assertEquals("PRM-SYNTHESIZE-001", sent.promptPackId());
    assertEquals(WorkOrders.TOOLS.stream().sorted().toList(),
        sent.tools().stream().map(ToolDefinition::name).sorted().toList(), "every allowed tool is offered");
    assertTrue(sent.messages().get(0).text().contains("prior_results"));
  }

  @Test
  void executeWorkOrder_completesUnderTheGeneralContract() { // seed 3
    provider.thenText("{\"result\":\"verified 4 ledgers\"}", 300, 20);

    WorkOrder wo = h.run(WorkOrders.execute("verify the ledgers")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals("verified 4 ledgers", wo.outputResult().path("result").asText());
    assertEquals(WorkOrders.EXECUTE, provider.requests.get(0).contractId());
  }

  @Test
  void toolCallWorkOrder_runsOneToolAndNoModel() { // seed 4
    Outcome out = h.run(WorkOrders.toolCall("list_packages", Json.object()));
    WorkOrder wo = out.workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals(List.of(), provider.requests, "a tool_call WO makes no LLM call");
    assertEquals(List.of("list_packages"), tools.toolIds());
    LedgerEntry call = h.ho1("TOOL_CALL").get(0);
    assertEquals(call.entryId(), wo.outputResult().path("tool_entry_id").asText());
    assertEquals(ToolLog.PACKAGES, call.metaText("result"));
    assertEquals(1, wo.cost().toolCalls());
    assertEquals(0, wo.cost().llmCalls());
    assertEquals(List.of(), h.hot("EXCHANGE"));
    assertEquals(List.of(), h.ho1("LLM_CALL"));
  }

  @Test
  void modelAnswerThatLooksLikeAToolReference_isValidatedAsAnAnswer_notTakenAsAToolResult() {
    // A tool_call work order's result travels as a typed reference (WoFinishRequest.toolResultRef),
    // not as a "ref:" final text, so no model answer can pass for one.
    h.run(WorkOrders.toolCall("list_packages", Json.object()));
    String toolEntry = h.ho1("TOOL_CALL").get(0).entryId();
    provider.thenText("ref:" + toolEntry, 100, 10);

    WorkOrder wo = h.run(WorkOrders.synthesize("how many packages?")).workOrder();

    assertEquals(WoState.FAILED, wo.state(), String.valueOf(wo.outputResult()));
    assertEquals("output_schema_invalid", wo.error().code());
    assertNull(wo.outputResult());
  }

  @Test
  void completedWorkOrder_isInStateCompletedWithNoError() { // seed 5
    provider.thenText(CLASSIFY_JSON, 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hi")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertNull(wo.error());
    assertTrue(wo.state().isTerminal());
  }

  @Test
  void outputResult_isTheParsedModelJson_extraPropertiesKept() { // seed 6
    provider.thenText("{\"speech_act\":\"question\",\"ambiguity\":\"medium\",\"intent\":\"list_packages\","
        + "\"needs_tools\":true}", 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("what packages?")).workOrder();

    assertEquals(Json.parse("{\"speech_act\":\"question\",\"ambiguity\":\"medium\",\"intent\":\"list_packages\","
        + "\"needs_tools\":true}"), wo.outputResult());
  }

  @Test
  void cost_isTheProvidersReportedUsagePricedAndCounted() { // seed 7
    provider.thenText(CLASSIFY_JSON, 1000, 200);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    WoCost c = wo.cost();
    assertEquals(1000, c.inputTokens());
    assertEquals(200, c.outputTokens());
    assertEquals(1200, c.totalTokens());
    assertEquals(1, c.llmCalls());
    assertEquals(0, c.toolCalls());
    double expected = (1000 * Ho1Harness.INPUT_PRICE + 200 * Ho1Harness.OUTPUT_PRICE) / 1_000_000;
    assertEquals(expected, c.cost(), 1e-12);
    JsonNode recorded = h.ho1("WO_COMPLETED").get(0).meta("cost");
    assertEquals(1200, recorded.path("total_tokens").asLong());
    assertEquals(1, recorded.path("llm_calls").asInt());
  }

  @Test
  void completedAt_isAnIsoInstantOfTheCompletion() { // seed 8
    provider.thenText(CLASSIFY_JSON, 10, 5);
    Instant before = Instant.now();

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    Instant at = Instant.parse(wo.completedAt());
    assertFalse(at.isBefore(before), at + " is before the run started at " + before);
    assertFalse(at.isAfter(Instant.now()));
    assertEquals(wo.completedAt(), h.ho1("WO_COMPLETED").get(0).metaText("completed_at"));
    assertEquals(WorkOrders.CREATED_AT, wo.createdAt());
  }

  // ------------------------------------------------------------------ contracts (seed 9-13)

  @Test
  void contractFoundById_isRenderedWithItsPromptPackAndTheAgentsSystemPrompt() { // seed 9
    provider.thenText(CLASSIFY_JSON, 10, 5);

    h.run(WorkOrders.classify("hello"));

    PromptRequest sent = provider.requests.get(0);
    assertTrue(sent.system().contains("You are ADMIN"), "the agent's system prompt is part of the system prompt");
    LedgerEntry executing = h.ho1("WO_EXECUTING").get(0);
    assertEquals(WorkOrders.CLASSIFY, executing.metaText("contract_id"));
    assertEquals("PRM-CLASSIFY-001", executing.metaText("prompt_pack_id"));
    assertEquals(sent.system(), executing.meta("prompt").path("system").asText());
    assertEquals(sent.messages().get(0).text(), executing.meta("prompt").path("user").asText());
  }

  @Test
  void loadedContractsSchemas_reachTheGatewayUnchanged() { // seed 10
    provider.thenText(ANSWER_JSON, 10, 5);

    h.run(WorkOrders.synthesize("hello"));

    PromptContract contract = Catalog.loadDefault().contract(WorkOrders.SYNTHESIZE);
    PromptRequest sent = provider.requests.get(0);
    assertEquals(contract.outputSchema(), sent.outputSchema());
    assertEquals(contract.structuredOutput(), sent.structuredOutput());
  }

  @Test
  void unknownContract_failsTheWorkOrderWithContractNotFound_listingTheKnownOnes() { // seed 11
    WorkOrder planned = WorkOrders.dispatched(5, WoType.EXECUTE, Json.object().put("user_input", "x"),
        WorkOrders.constraints("PRC-NONEXISTENT-001", WorkOrders.BUDGET, 1, List.of()));

    WorkOrder wo = h.run(planned).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("contract_not_found", wo.error().code());
    assertEquals("contract PRC-NONEXISTENT-001 not found in contracts/ (known: PRC-CLASSIFY-001, PRC-DEGRADED-001, "
        + "PRC-EXECUTE-001, PRC-SYNTHESIZE-001)", wo.error().message());
    assertEquals(List.of(), provider.requests);
  }

  // seed 12 (a contract file missing required fields is refused naming the file and field): the
  // catalog refuses it when the worker starts, before any work order can name it; see
  // cp.contracts.ContractLoaderTest.contractMissingRequiredFields_isRefusedNamingFileAndField.

  @Test
  void contractBoundary_setsMaxTokensAndTemperature_andWorkOrderOverridesOnlyTighten() { // seed 13
    provider.thenText(CLASSIFY_JSON, 10, 5).thenText(ANSWER_JSON, 10, 5);

    h.run(WorkOrders.classify("hello"));
    WorkOrder tight = WorkOrders.dispatched(6, WoType.SYNTHESIZE, WorkOrders.synthesizeInput("hello"),
        new WoConstraints(WorkOrders.SYNTHESIZE, WorkOrders.BUDGET, 1, 600, List.of(), 100, 0.0));
    h.run(tight);

    PromptRequest classify = provider.requests.get(0);
    assertEquals(500, classify.maxTokens(), "PRC-CLASSIFY-001 boundary.max_tokens");
    assertEquals(0.0, classify.temperature());
    PromptRequest synth = provider.requests.get(1);
    assertEquals(100, synth.maxTokens(), "the WO's cap is tighter than the contract's 4096");
    assertEquals(0.0, synth.temperature(), "the WO's override replaces the contract's 0.3");
  }

  // ------------------------------------------------------------------ tool loop (seed 14-18)

  @Test
  void singleToolRound_runsTheTool_andSendsItsResultBackUnderTheToolUseId() { // seed 14
    provider.thenTools(800, 30, use("toolu_01", "list_packages", "{}")).thenText(ANSWER_JSON, 900, 40);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    assertEquals(List.of("list_packages"), tools.toolIds());
    assertEquals(2, provider.requests.size());
    PromptRequest first = provider.requests.get(0);
    PromptRequest second = provider.requests.get(1);
    assertEquals(3, second.messages().size());
    assertEquals(first.messages().get(0), second.messages().get(0), "the prompt is re-sent unchanged");
    Message assistant = second.messages().get(1);
    assertEquals(Message.ASSISTANT, assistant.role());
    assertEquals(List.of(use("toolu_01", "list_packages", "{}")), assistant.content());
    Message results = second.messages().get(2);
    assertEquals(Message.USER, results.role());
    assertEquals(List.of(ContentBlock.toolResult("toolu_01", ToolLog.PACKAGES, false)), results.content());
    assertEquals(1, out.toolCalls().size());
    assertEquals("ok", out.toolCalls().get(0).status());
    assertEquals(2, out.workOrder().cost().llmCalls());
    assertEquals(1, out.workOrder().cost().toolCalls());
  }

  @Test
  void multiRoundLoop_carriesEveryEarlierRoundInTheNextRequest() { // seed 15
    provider.thenTools(800, 30, use("toolu_01", "list_packages", "{}"))
        .thenTools(900, 30, use("toolu_02", "read_file", "{\"path\":\"README.md\"}"))
        .thenText(ANSWER_JSON, 1000, 40);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed, and what does the README say?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    assertEquals(List.of("list_packages", "read_file"), tools.toolIds());
    assertEquals(Json.parse("{\"path\":\"README.md\"}"), tools.calls.get(1).arguments());
    assertEquals(List.of(WorkOrders.SESSION, WorkOrders.SESSION),
        tools.calls.stream().map(ToolLog.Call::sessionId).toList(), "each tool call knows its work order's session");
    List<Message> third = provider.requests.get(2).messages();
    assertEquals(List.of("user", "assistant", "user", "assistant", "user"), third.stream().map(Message::role).toList());
    assertEquals("toolu_01", third.get(2).content().get(0).toolUseId());
    assertEquals("toolu_02", third.get(3).content().get(0).id());
    assertEquals(List.of(ContentBlock.toolResult("toolu_02", "# Control Plane\nREADME text", false)),
        third.get(4).content());
    assertEquals(3, out.workOrder().cost().llmCalls());
    assertEquals(2, out.workOrder().cost().toolCalls());
  }

  @Test
  void budgetSpentByTheFirstRound_failsTheWorkOrderBeforeTheNextCall() { // seed 16
    long budget = 5_000;
    provider.thenTools(4_000, 1_000, use("toolu_01", "list_packages", "{}"));

    WorkOrder wo = h.run(WorkOrders.synthesize("what packages are installed?", budget, 5)).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("budget_exhausted", wo.error().code());
    assertTrue(wo.error().message().contains("before round 2"), wo.error().message());
    assertEquals(1, provider.requests.size(), "no one more call");
    assertEquals(5_000, wo.cost().totalTokens());
  }

  @Test
  void toolUseInTheLastAllowedRound_failsWithTurnLimitExceeded_withoutRunningThatRoundsTools() { // seed 17
    provider.thenTools(800, 30, use("toolu_01", "list_packages", "{}"))
        .thenTools(900, 30, use("toolu_02", "list_packages", "{}"));

    WorkOrder wo = h.run(WorkOrders.synthesize("loop", WorkOrders.BUDGET, 2)).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("turn_limit_exceeded", wo.error().code());
    assertEquals(2, provider.requests.size());
    assertEquals(1, tools.calls.size(), "the tools of round 2 nobody would read are not run");
  }

  @Test
  void replyWithTextAndSeveralToolUses_runsEachToolInOrder_andAnswersThemInOneMessage() { // seed 18
    provider.thenTools(800, 60, ContentBlock.text("Let me check both."),
        use("toolu_a", "list_packages", "{}"), use("toolu_b", "gate_check", "{\"gate\":\"all\"}"))
        .thenText(ANSWER_JSON, 900, 40);

    Outcome out = h.run(WorkOrders.synthesize("packages and gates?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    assertEquals(List.of("list_packages", "gate_check"), tools.toolIds());
    List<Message> second = provider.requests.get(1).messages();
    assertEquals(List.of(ContentBlock.text("Let me check both."), use("toolu_a", "list_packages", "{}"),
        use("toolu_b", "gate_check", "{\"gate\":\"all\"}")), second.get(1).content());
    assertEquals(List.of(ContentBlock.toolResult("toolu_a", ToolLog.PACKAGES, false),
        ContentBlock.toolResult("toolu_b", "all gates pass", false)), second.get(2).content());
  }

  // ------------------------------------------------------------------ budget (seed 19-21)

  @Test
  void everyCall_isDebitedWithTheProvidersReportedTokens() { // seed 19
    provider.thenTools(1_000, 100, use("toolu_01", "list_packages", "{}")).thenText(ANSWER_JSON, 1_500, 200);

    WorkOrder wo = h.run(WorkOrders.synthesize("what packages are installed?")).workOrder();

    assertEquals(2_500, wo.cost().inputTokens());
    assertEquals(300, wo.cost().outputTokens());
    assertEquals(WorkOrders.BUDGET, provider.requests.get(0).tokenBudgetRemaining());
    assertEquals(WorkOrders.BUDGET - 1_100, provider.requests.get(1).tokenBudgetRemaining(),
        "round 2 is sent with what round 1 left");
    List<LedgerEntry> calls = h.ho1("LLM_CALL");
    assertEquals(List.of(1_000L, 1_500L), calls.stream().map(e -> e.meta("input_tokens").asLong()).toList());
    assertEquals(List.of(100L, 200L), calls.stream().map(e -> e.meta("output_tokens").asLong()).toList());
    assertEquals(List.of(1_100L, 1_700L), h.successfulExchanges().stream()
        .map(e -> e.meta("input_tokens").asLong() + e.meta("output_tokens").asLong()).toList());
  }

  @Test
  void promptTheRemainingBudgetCannotPayFor_isRefusedByTheGateway_andFailsTheWorkOrder() { // seed 20
    long budget = 20_000;
    provider.thenTools(budget - 10, 0, use("toolu_01", "list_packages", "{}"));

    WorkOrder wo = h.run(WorkOrders.synthesize("what packages are installed?", budget, 5)).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("budget_exhausted", wo.error().code());
    assertEquals(1, provider.requests.size(), "the refused prompt never reaches the provider");
    List<LedgerEntry> rejected = h.hot("PROMPT_REJECTED");
    assertEquals(1, rejected.size());
    assertEquals("budget_exhausted", rejected.get(0).metaText("error_code"));
    assertTrue(rejected.get(0).metaText("error_message").contains("10 tokens left"),
        rejected.get(0).metaText("error_message"));
  }

  @Test
  void budgetScope_isTheWorkOrderAndSessionOfTheCall() { // seed 21
    provider.thenText(ANSWER_JSON, 10, 5);

    WorkOrder wo = h.run(WorkOrders.synthesize("hello", 12_345, 5)).workOrder();

    PromptRequest sent = provider.requests.get(0);
    assertEquals(wo.woId(), sent.workOrderId());
    assertEquals(WorkOrders.SESSION, sent.sessionId());
    assertEquals(WorkOrders.AGENT, sent.agentClass());
    assertEquals(12_345L, sent.tokenBudgetRemaining());
    LedgerEntry exchange = h.successfulExchanges().get(0);
    assertEquals(wo.woId(), exchange.workOrderId());
    assertEquals(WorkOrders.SESSION, exchange.metaText("session_id"));
  }

  // ------------------------------------------------------------------ state (seed 22-24)

  @Test
  void dispatchedWorkOrder_isMarkedExecutingBeforeAnyCall() { // seed 22
    provider.thenText(CLASSIFY_JSON, 10, 5);

    h.run(WorkOrders.classify("hello"));

    List<LedgerEntry> trace = h.ho1Ledger().readAll();
    assertEquals(List.of("WO_EXECUTING", "LLM_CALL", "WO_COMPLETED"), trace.stream().map(LedgerEntry::eventType)
        .toList());
    assertEquals("EXECUTING", trace.get(0).decision());
    assertEquals("dispatched -> executing under PRC-CLASSIFY-001", trace.get(0).reason());
  }

  @Test
  void successfulWorkOrder_movesFromExecutingToCompleted() { // seed 23
    provider.thenText(CLASSIFY_JSON, 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    LedgerEntry done = h.ho1("WO_COMPLETED").get(0);
    assertEquals("COMPLETED", done.decision());
    assertEquals("executing -> completed", done.reason());
  }

  @Test
  void failedWorkOrder_movesFromExecutingToFailed_andStaysThere() { // seed 24
    provider.thenText("{\"speech_act\":\"shout\"}", 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("HEY")).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("FAILED", h.ho1("WO_FAILED").get(0).decision());
    assertThrows(IllegalTransitionException.class, () -> wo.transitionTo(WoState.COMPLETED));
  }

  // ------------------------------------------------------------------ HO1m trace (seed 25-28)

  @Test
  void llmCallEntry_isWrittenOncePerRound_withTokensModelLatencyAndItsExchange() { // seed 25
    provider.thenTools(800, 30, use("toolu_01", "list_packages", "{}")).thenText(ANSWER_JSON, 900, 40);

    WorkOrder wo = h.run(WorkOrders.synthesize("what packages are installed?")).workOrder();

    List<LedgerEntry> calls = h.ho1("LLM_CALL");
    assertEquals(2, calls.size());
    List<String> exchangeIds = h.successfulExchanges().stream().map(LedgerEntry::entryId).toList();
    for (int i = 0; i < calls.size(); i++) {
      LedgerEntry c = calls.get(i);
      assertHo1Scope(c, wo);
      assertEquals(i + 1, c.meta("round").asInt());
      assertEquals(ScriptedProvider.MODEL, c.metaText("model_id"));
      assertEquals(ScriptedProvider.ID, c.metaText("provider_id"));
      assertNotNull(c.meta("latency_ms"));
      assertEquals(exchangeIds.get(i), c.metaText("exchange_entry_id"));
      assertFalse(c.meta("replayed").asBoolean());
    }
  }

  @Test
  void toolCallEntry_recordsToolArgumentsStatusAndResult() { // seed 26
    tools.answer("read_file", ToolResult.refused("path_forbidden", "HOT/kernel/ is forbidden"));
    provider.thenTools(800, 30, use("toolu_01", "read_file", "{\"path\":\"HOT/kernel/x.py\"}"))
        .thenText(ANSWER_JSON, 900, 40);

    WorkOrder wo = h.run(WorkOrders.synthesize("show HOT/kernel/x.py")).workOrder();

    LedgerEntry call = h.ho1("TOOL_CALL").get(0);
    assertHo1Scope(call, wo);
    assertEquals("read_file", call.metaText("tool_id"));
    assertEquals("toolu_01", call.metaText("tool_use_id"));
    assertEquals("refused", call.metaText("status"));
    assertEquals("path_forbidden", call.metaText("error_code"));
    assertEquals(Json.parse("{\"path\":\"HOT/kernel/x.py\"}"), call.meta("arguments"));
    assertEquals("REFUSED", call.decision());
    assertEquals(List.of(ContentBlock.toolResult("toolu_01", "HOT/kernel/ is forbidden", true)),
        provider.requests.get(1).messages().get(2).content(),
        "a refused tool is an error tool_result the model can read, not a failure");
    assertEquals(WoState.COMPLETED, wo.state());
  }

  @Test
  void completedWorkOrder_writesWoCompletedOnce_withOutputAndCost() { // seed 27
    provider.thenText(CLASSIFY_JSON, 100, 20);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    List<LedgerEntry> done = h.ho1("WO_COMPLETED");
    assertEquals(1, done.size());
    assertHo1Scope(done.get(0), wo);
    assertEquals(Json.parse(CLASSIFY_JSON), done.get(0).meta("output_result"));
    assertEquals(120, done.get(0).meta("cost").path("total_tokens").asLong());
    assertEquals(List.of(), h.ho1("WO_FAILED"));
  }

  @Test
  void failedWorkOrder_writesWoFailedOnce_withCodeAndMessage() { // seed 28
    provider.thenText("not json at all", 100, 20);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    List<LedgerEntry> failed = h.ho1("WO_FAILED");
    assertEquals(1, failed.size());
    assertHo1Scope(failed.get(0), wo);
    assertEquals("output_schema_invalid", failed.get(0).metaText("error_code"));
    assertEquals(wo.error().message(), failed.get(0).metaText("error_message"));
    assertEquals(List.of(), h.ho1("WO_COMPLETED"));
  }

  @Test
  void fullToolLoop_writesEachTraceEventExactlyOnce_allScopedToHo1() {
    provider.thenTools(800, 30, use("toolu_01", "list_packages", "{}"))
        .thenTools(900, 30, use("toolu_02", "query_ledger", "{\"tier\":\"ho1\"}"))
        .thenText(ANSWER_JSON, 1000, 40);

    WorkOrder wo = h.run(WorkOrders.synthesize("what packages are installed?")).workOrder();

    assertEquals(Map.of("LLM_CALL", 3L, "TOOL_CALL", 2L, "WO_COMPLETED", 1L, "WO_EXECUTING", 1L), h.ho1Counts());
    h.ho1Ledger().readAll().forEach(e -> assertHo1Scope(e, wo));
    assertEquals(3, h.successfulExchanges().size());
    assertEquals(3, h.hot("EXCHANGE").size(), "no failed or duplicate exchanges");
  }

  @Test
  void exchangeRecords_carryTheWorkflowRunAndActivityIdOfTheirScheduledActivity() {
    provider.thenTools(800, 30, use("toolu_01", "list_packages", "{}")).thenText(ANSWER_JSON, 900, 40);

    h.run(WorkOrders.synthesize("what packages are installed?"));

    List<LedgerEntry> exchanges = h.successfulExchanges();
    for (LedgerEntry e : exchanges) {
      assertEquals(h.lastWorkflowId(), e.metaText("workflow_id"));
      assertEquals(h.lastRunId(), e.metaText("run_id"));
      assertEquals(1, e.meta("attempt").asInt());
    }
    assertEquals(h.scheduledActivityIds(h.lastWorkflowId(), "Ho1LlmRound"),
        exchanges.stream().map(e -> e.metaText("activity_id")).toList(),
        "each EXCHANGE names the ActivityTaskScheduled event of its round");
  }

  // ------------------------------------------------------------------ input / output (seed 29-32)

  @Test
  void validInputContext_passesAndThePromptIsStored() { // seed 29
    provider.thenText(ANSWER_JSON, 10, 5);
    ObjectNode input = WorkOrders.synthesizeInput("hello");
    input.putObject("assembled_context").put("text", "earlier: hi").put("fragment_count", 1);

    WorkOrder wo = h.run(WorkOrders.dispatched(7, WoType.SYNTHESIZE, input,
        WorkOrders.constraints(WorkOrders.SYNTHESIZE, WorkOrders.BUDGET, 1, List.of()))).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    LedgerEntry executing = h.ho1("WO_EXECUTING").get(0);
    assertNull(executing.metaText("error_code"));
    assertTrue(executing.meta("prompt").path("user").asText().contains("earlier: hi"));
  }

  @Test
  void inputMissingARequiredField_failsWithInputSchemaInvalid_namingTheField_beforeAnyCall() { // seed 30
    WorkOrder noUserInput = WorkOrders.dispatched(8, WoType.CLASSIFY, Json.object().put("text", "hello"),
        WorkOrders.constraints(WorkOrders.CLASSIFY, WorkOrders.BUDGET, 1, List.of()));

    WorkOrder wo = h.run(noUserInput).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("input_schema_invalid", wo.error().code());
    assertTrue(wo.error().message().contains("user_input"), wo.error().message());
    assertEquals(List.of(), provider.requests);
    assertEquals("input_schema_invalid", h.ho1("WO_EXECUTING").get(0).metaText("error_code"));
    assertEquals(Map.of("WO_EXECUTING", 1L, "WO_FAILED", 1L), h.ho1Counts());
  }

  @Test
  void outputInAJsonFence_isAccepted() { // seed 31
    provider.thenText("Here you go:\n```json\n" + CLASSIFY_JSON + "\n```\n", 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals(Json.parse(CLASSIFY_JSON), wo.outputResult());
  }

  @Test
  void outputOfTheWrongShape_failsWithOutputSchemaInvalid_listingEveryViolation() { // seed 32
    provider.thenText("{\"speech_act\":\"shout\"}", 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("HEY")).workOrder();

    assertEquals("output_schema_invalid", wo.error().code());
    String msg = wo.error().message();
    assertTrue(msg.startsWith("output does not match PRC-CLASSIFY-001: "), msg);
    assertTrue(msg.contains("speech_act"), "names the bad enum value: " + msg);
    assertTrue(msg.contains("ambiguity"), "names the missing property: " + msg);
    assertEquals(Boolean.FALSE, h.successfulExchanges().get(0).meta("output_valid").asBoolean(),
        "the gateway recorded the invalid output too");
  }

  @Test
  void outputThatIsNotJson_failsWithOutputSchemaInvalid() { // seed 32
    provider.thenText("Hello there, I am not JSON.", 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("output_schema_invalid", wo.error().code());
    assertTrue(wo.error().message().startsWith("the model's answer is not JSON"), wo.error().message());
    assertEquals(1, wo.cost().llmCalls(), "the call was made and is paid for");
  }

  // ------------------------------------------------------------------ errors (seed 33-35)

  @Test
  void nonRetryableProviderError_failsWithGatewayError_withoutRetrying() { // seed 33
    provider.thenFail(ProviderErrorKind.AUTHENTICATION, "invalid x-api-key");

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("gateway_error", wo.error().code());
    assertTrue(wo.error().message().contains("invalid x-api-key"), wo.error().message());
    assertEquals(1, provider.requests.size(), "a 401 is not retried");
    List<LedgerEntry> exchanges = h.hot("EXCHANGE");
    assertEquals(1, exchanges.size());
    assertEquals("ERROR", exchanges.get(0).decision());
    assertEquals("authentication", exchanges.get(0).metaText("error_code"));
    assertEquals(List.of(), h.ho1("LLM_CALL"));
  }

  @Test
  void retryableProviderError_isRetriedByTemporal_andTheWorkOrderCompletes() { // seed 33
    provider.thenFail(ProviderErrorKind.OVERLOADED, "overloaded").thenText(CLASSIFY_JSON, 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    assertEquals(2, provider.requests.size());
    List<LedgerEntry> exchanges = h.hot("EXCHANGE");
    assertEquals(List.of("ERROR", "SUCCESS"), exchanges.stream().map(LedgerEntry::decision).toList());
    assertEquals(List.of(1, 2), exchanges.stream().map(e -> e.meta("attempt").asInt()).toList());
    assertEquals(exchanges.get(0).metaText("activity_id"), exchanges.get(1).metaText("activity_id"),
        "both attempts belong to one scheduled activity");
    assertEquals(1, h.ho1("LLM_CALL").size());
    assertEquals(1, wo.cost().llmCalls());
  }

  @Test
  void retryableProviderErrorThatPersists_failsWithGatewayErrorAfterTheConfiguredAttempts() { // seed 33
    for (int i = 0; i < Ho1Harness.FAST_RETRIES.llmMaxAttempts(); i++) {
      provider.thenFail(ProviderErrorKind.SERVER_ERROR, "upstream 503");
    }

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals("gateway_error", wo.error().code());
    assertEquals(Ho1Harness.FAST_RETRIES.llmMaxAttempts(), provider.requests.size());
    assertEquals(Ho1Harness.FAST_RETRIES.llmMaxAttempts(), h.hot("EXCHANGE").size(), "one record per failed attempt");
  }

  @Test
  void rateLimitedProviderError_isRetriedNoSoonerThanTheProvidersRetryAfter() { // seed 33
    Duration retryAfter = Duration.ofMillis(600);
    provider.then(r -> {
      throw ProviderException.builder(ScriptedProvider.ID, ProviderErrorKind.RATE_LIMITED).httpStatus(429)
          .retryAfter(Optional.of(retryAfter)).message("rate limited").build();
    }).thenText(CLASSIFY_JSON, 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    long gapNanos = provider.sentAtNanos.get(1) - provider.sentAtNanos.get(0);
    assertTrue(gapNanos >= retryAfter.toNanos(), "retried after " + gapNanos / 1_000_000 + " ms, though the provider"
        + " asked for " + retryAfter.toMillis() + " ms (the retry policy alone would wait "
        + Ho1Harness.FAST_RETRIES.retryInitialInterval().toMillis() + " ms)");
  }

  @Test
  void tightBudget_capsMaxTokensAtWhatTheBudgetLeavesAfterThePrompt() { // seed 19-20: budget is law
    provider.thenText(ANSWER_JSON, 10, 5).thenText(ANSWER_JSON, 10, 5);
    h.run(WorkOrders.synthesize("hello"));
    long promptTokens = TokenEstimate.ofPrompt(provider.requests.get(0));
    long budget = promptTokens + 100;

    h.run(WorkOrders.synthesize("hello", budget, 1));

    PromptRequest sent = provider.requests.get(1);
    assertEquals(promptTokens, TokenEstimate.ofPrompt(sent), "the same prompt both times");
    assertEquals(100, sent.maxTokens(), "the output may use only what the prompt leaves of the budget");
  }

  @Test
  void toolCallWorkOrderWhoseToolIsRefused_failsWithToolError() { // seed 4, 24
    tools.answer("list_packages", ToolResult.refused("permission_denied", "not for this agent"));

    WorkOrder wo = h.run(WorkOrders.toolCall("list_packages", Json.object())).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("tool_error", wo.error().code());
    assertEquals("tool list_packages ended refused (permission_denied)", wo.error().message());
    assertEquals(1, h.ho1("TOOL_CALL").size());
    assertEquals(1, h.ho1("WO_FAILED").size());
  }

  @Test
  void missingContract_leavesATraceOfExecutingThenFailed_andNoCall() { // seed 34
    WorkOrder planned = WorkOrders.dispatched(9, WoType.CLASSIFY, Json.object().put("user_input", "x"),
        WorkOrders.constraints("PRC-CLASSIFY-999", WorkOrders.BUDGET, 1, List.of()));

    WorkOrder wo = h.run(planned).workOrder();

    assertEquals("contract_not_found", wo.error().code());
    assertEquals(List.of("WO_EXECUTING", "WO_FAILED"), h.ho1Ledger().readAll().stream()
        .map(LedgerEntry::eventType).toList());
    assertEquals("contract_not_found", h.ho1("WO_EXECUTING").get(0).metaText("error_code"));
    assertEquals(List.of(), h.hot("EXCHANGE"));
  }

  @Test
  void budgetGoneBeforeTheFirstCall_failsWithBudgetExhausted_andCallsNothing() { // seed 35
    WorkOrder wo = h.run(WorkOrders.synthesize("hello", 0, 5)).workOrder();

    assertEquals(WoState.FAILED, wo.state());
    assertEquals("budget_exhausted", wo.error().code());
    assertTrue(wo.error().message().contains("before round 1"), wo.error().message());
    assertEquals(List.of(), provider.requests);
    assertEquals(List.of(), h.hot("PROMPT_REJECTED"));
    assertEquals(WoCost.ZERO, wo.cost());
  }

  /** The JSON between the {@code <input>} tags of a rendered user prompt. */
  private static JsonNode inputBlock(String userText) {
    int start = userText.indexOf("<input>");
    int end = userText.lastIndexOf("</input>");
    assertTrue(start >= 0 && end > start, () -> "no <input> block in: " + userText);
    return Json.parse(userText.substring(start + "<input>".length(), end));
  }

  private static void assertHo1Scope(LedgerEntry e, WorkOrder wo) {
    assertEquals("ho1", e.metaText("tier"), e::toString);
    assertEquals(wo.woId(), e.metaText("wo_id"), e::toString);
    assertEquals(wo.sessionId(), e.metaText("session_id"), e::toString);
    assertEquals(wo.woId(), e.submissionId(), e::toString);
  }
}
