package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.Catalog;
import cp.contracts.TestCatalogs;
import cp.gateway.TokenEstimate;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.ledger.Tier;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.Json;
import cp.model.Message;
import cp.model.ContractIds;
import cp.model.WorkOrderIds;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HO2's attention (seed 001 Q4: horizontal scan of HO2m + HO1m, priority probe of HO3m; seed
 * 003: the conversation is rebuilt from the ledger, ATT-ADMIN-001's budget and fallbacks) on
 * real ledgers, called directly without Temporal.
 */
class AttentionAssemblerTest {
  static final String SID = "SES-0000aaaa";
  static final String OTHER = "SES-0000bbbb";
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path home;
  @TempDir Path catalogDir;
  Ledgers ledgers;
  Catalog shipped = Catalog.loadDefault();

  @BeforeEach
  void setUp() {
    ledgers = Ledgers.open(home);
  }

  @AfterEach
  void tearDown() {
    ledgers.close();
  }

  // ------------------------------------------------------------------ fixtures

  static String ts(int second) {
    return T0.plusSeconds(second).toString();
  }

  /** An EXCHANGE as the gateway records it: the prompt's first user message carries the input. */
  void exchange(String sid, int turn, int seq, String contract, String userInput, String response, String outcome,
      String finishReason, int second) {
    String woId = WorkOrderIds.workOrder(sid, turn, seq);
    String userText = ContractIds.DEGRADED.equals(contract)
        ? userInput
        : "Write the reply to the user for this work order.\n\n<input>\n"
            + Json.write(Json.object().put("user_input", userInput).put("note", "other input fields"))
            + "\n</input>";
    ObjectNode prompt = Json.object().put("system", "system prompt");
    prompt.set("messages", Json.tree(List.of(Message.user(userText))));
    prompt.putArray("tools");
    ObjectNode m = Json.object().put("session_id", sid).put("work_order_id", woId).put("tier", "ho1")
        .put("contract_id", contract);
    m.set("prompt", prompt);
    m.put("response", response).put("outcome", outcome).put("finish_reason", finishReason)
        .put("input_tokens", 10).put("output_tokens", 5);
    ledgers.hot().write(LedgerEntry.builder("EXCHANGE").submissionId(contract).decision("SUCCESS")
        .reason("exchange completed").metadata(m).timestamp(ts(second)).build());
  }

  /** A turn's accepted synthesize answer (work order seq 2, after classify). */
  void answer(String sid, int turn, String user, String reply, int second) {
    exchange(sid, turn, 2, ContractIds.SYNTHESIZE, user, Json.write(Json.object().put("response_text", reply)),
        "success", "stop", second);
  }

  void event(LedgerStream l, String sid, String type, String reason, int second) {
    l.write(LedgerEntry.builder(type).submissionId(sid).decision("OK").reason(reason)
        .metadata(Json.object().put("session_id", sid)).timestamp(ts(second)).build());
  }

  AttentionAssembler assembler(Catalog c) {
    return new AttentionAssembler(c, ledgers, Clock.systemUTC());
  }

  static AttentionRequest request(String agentClass, String template, int turn) {
    return new AttentionRequest(SID, agentClass, template, turn, "the current message");
  }

  AttentionResult admin(int turn) {
    return assembler(shipped).assemble(request("ADMIN", "ATT-ADMIN-001", turn), "key-" + turn);
  }

  LedgerEntry recorded(String agentClass, AttentionResult r) {
    return ledgers.ho2(agentClass).byId(r.contextRef()).orElseThrow();
  }

  String context(String agentClass, AttentionResult r) {
    return recorded(agentClass, r).metaText("context");
  }

  static ObjectNode stage(String name, String type, ObjectNode config) {
    ObjectNode s = Json.object().put("stage", name).put("type", type);
    s.set("config", config);
    return s;
  }

  static ObjectNode tiers(String... tiers) {
    ObjectNode c = Json.object();
    ArrayNode a = c.putArray("tiers");
    for (String t : tiers) {
      a.add(t);
    }
    return stage("select_tiers", "tier_select", c);
  }

  static ObjectNode query(String name, String tier, String eventType, int maxEntries, String recency) {
    ObjectNode c = Json.object().put("tier", tier).put("max_entries", maxEntries).put("recency", recency);
    if (eventType != null) {
      c.put("event_type", eventType);
    }
    return stage(name, "ledger_query", c);
  }

  static ObjectNode conversation() {
    return query("session_conversation", "hot", "EXCHANGE", 10, "session");
  }

  static ObjectNode structure(int maxTokens) {
    return stage("structure", "structuring", Json.object().put("strategy", "chronological").put("max_tokens", maxTokens));
  }

  static ObjectNode halt(int minFragments) {
    return stage("halt", "halting", Json.object().put("min_fragments", minFragments));
  }

  static ObjectNode template(String id, List<ObjectNode> pipeline, int maxContextTokens, int maxQueries, long timeoutMs,
      String onTimeout, String onEmpty) {
    ObjectNode t = Json.object().put("template_id", id).put("version", "1.0.0").put("description", "test template");
    t.putObject("applies_to").putArray("agent_class").add("ADMIN");
    t.putArray("pipeline").addAll(pipeline);
    t.putObject("budget").put("max_context_tokens", maxContextTokens).put("max_queries", maxQueries)
        .put("timeout_ms", timeoutMs);
    t.putObject("fallback").put("on_timeout", onTimeout).put("on_empty", onEmpty);
    return t;
  }

  /** A clock that stands still for {@code stillCalls} readings, then jumps an hour ahead. */
  static final class JumpingClock extends Clock {
    final AtomicInteger calls = new AtomicInteger();
    final int stillCalls;

    JumpingClock(int stillCalls) {
      this.stillCalls = stillCalls;
    }

    @Override
    public long millis() {
      return calls.incrementAndGet() > stillCalls ? T0.toEpochMilli() + 3_600_000 : T0.toEpochMilli();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  // ------------------------------------------------------------------ conversation from the ledger

  // Seed 003 principle 5 / Q5: the ledger is the session memory; only this session's exchanges.
  @Test
  void conversation_isRebuiltFromThisSessionsExchangeRecordsOnly() {
    answer(SID, 1, "hello", "Hi there", 1);
    answer(OTHER, 1, "another user's secret question", "another answer", 2);
    AttentionResult r = admin(2);
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("## session_conversation\n[turn 1] User: hello\n[turn 1] Assistant: Hi there\n"), ctx);
    assertFalse(ctx.contains("secret"), ctx);
    assertFalse(ctx.contains("another answer"), ctx);
    assertEquals(1, r.priorTurns());
  }

  // Seed 003 test 8 (prior turns included): classify output and tool_use rounds are not answers.
  @Test
  void conversation_keepsOnlyFinalSynthesizeAndDegradedAnswers() {
    exchange(SID, 1, 1, ContractIds.CLASSIFY, "what packages?", "{\"speech_act\":\"question\"}", "success", "stop", 1);
    answer(SID, 1, "what packages?", "Four contracts are installed.", 2);
    exchange(SID, 1, 3, ContractIds.SYNTHESIZE, "what packages?", "let me look that up", "success", "tool_use", 3);
    answer(SID, 2, "is the plane up?", "It is up.", 4);
    exchange(SID, 2, 3, ContractIds.SYNTHESIZE, "is the plane up?", "", "error", "error", 5);
    exchange(SID, 3, 0, ContractIds.DEGRADED, "are you there?", "degraded: I am here.", "success", "stop", 6);
    AttentionResult r = admin(4);
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("[turn 1] User: what packages?\n[turn 1] Assistant: Four contracts are installed.\n"), ctx);
    assertTrue(ctx.contains("[turn 2] User: is the plane up?\n[turn 2] Assistant: It is up.\n"), ctx);
    assertTrue(ctx.contains("[turn 3] User: are you there?\n[turn 3] Assistant: degraded: I am here.\n"), ctx);
    assertFalse(ctx.contains("speech_act"), "classify output is not part of the conversation: " + ctx);
    assertFalse(ctx.contains("let me look that up"), "a tool_use round is not an answer: " + ctx);
    assertEquals(3, r.priorTurns());
    assertEquals(6, r.fragmentCount(), "a user and an assistant line per turn");
  }

  // Seed 001 Q7 (retries): the conversation shows the answer of a turn's last synthesize attempt.
  @Test
  void conversation_showsTheLastAttemptOfEachTurn() {
    answer(SID, 1, "question?", "   ", 1);
    exchange(SID, 1, 3, ContractIds.SYNTHESIZE, "question?",
        Json.write(Json.object().put("response_text", "the accepted retry")), "success", "stop", 2);
    String ctx = context("ADMIN", admin(2));
    assertTrue(ctx.contains("[turn 1] Assistant: the accepted retry\n"), ctx);
    assertEquals(1, ctx.split("\\[turn 1\\] Assistant:", -1).length - 1, ctx);
  }

  // Seed 003 test 8: only turns before the current one (a retried turn must not see itself).
  @Test
  void conversation_holdsOnlyTurnsBeforeTheCurrentOne() {
    answer(SID, 1, "one", "first", 1);
    answer(SID, 2, "two", "second", 2);
    answer(SID, 3, "three", "third", 3);
    AttentionResult r = admin(3);
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("[turn 2] Assistant: second"), ctx);
    assertFalse(ctx.contains("[turn 3]"), ctx);
    assertEquals(2, r.priorTurns());
  }

  // ATT-ADMIN-001's session_conversation keeps the last 10 turns, however many EXCHANGEs each turn has.
  @Test
  void conversation_ofALongSessionWithManyRoundsPerTurn_holdsExactlyTheLastTenTurns() {
    int turns = 30;
    int toolRounds = 5;
    int second = 0;
    for (int t = 1; t <= turns; t++) {
      exchange(SID, t, 1, ContractIds.CLASSIFY, "q" + t, "{\"speech_act\":\"question\"}", "success", "stop", ++second);
      for (int round = 1; round <= toolRounds; round++) {
        exchange(SID, t, 2, ContractIds.SYNTHESIZE, "q" + t, "", "success", "tool_use", ++second);
      }
      answer(SID, t, "q" + t, "answer " + t, ++second);
    }
    AttentionResult r = admin(turns + 1);
    String ctx = context("ADMIN", r);
    assertEquals(10, r.priorTurns(), ctx);
    for (int t = turns - 9; t <= turns; t++) {
      assertTrue(ctx.contains("[turn " + t + "] Assistant: answer " + t + "\n"), "turn " + t + " missing: " + ctx);
    }
    assertFalse(ctx.contains("[turn " + (turns - 10) + "]"), ctx);
  }

  // Seed 003 Q5: the user's words come from the <input> JSON of the prompt, not the whole rendering.
  @Test
  void conversation_takesTheUserInputFromThePromptsInputJson() {
    answer(SID, 1, "hello \"there\"\nsecond line", "Hi", 1);
    String ctx = context("ADMIN", admin(2));
    assertTrue(ctx.contains("[turn 1] User: hello \"there\"\nsecond line\n[turn 1] Assistant: Hi\n"), ctx);
    assertFalse(ctx.contains("Write the reply"), ctx);
    assertFalse(ctx.contains("other input fields"), ctx);
  }

  // ------------------------------------------------------------------ horizontal scan, priority probe

  // Seed 001 Q4: horizontal_scan reads recent HO2m (all sessions for ADMIN) and HO1m (failures with their
  // reasons; completions as one summary line each, without their reason or output).
  @Test
  void horizontalScan_readsTheMostRecentHo2mEntriesAndHo1mFailures() {
    LedgerStream ho2 = ledgers.ho2("ADMIN");
    for (int i = 1; i <= 12; i++) {
      event(ho2, i % 2 == 0 ? SID : OTHER, "WO_PLANNED", "ho2 event " + i, 10 + i);
    }
    event(ledgers.ho1(), OTHER, "WO_FAILED", "a failed work order", 30);
    event(ledgers.ho1(), SID, "WO_COMPLETED", "a completed work order", 31);
    AttentionResult r = admin(1);
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("## recent_ho2_events (ho2)\n"), ctx);
    for (int i = 3; i <= 12; i++) {
      assertTrue(ctx.contains("WO_PLANNED OK: ho2 event " + i + "\n"), "max_entries 10 keeps event " + i + ": " + ctx);
    }
    assertFalse(ctx.contains("ho2 event 1\n"), ctx);
    assertFalse(ctx.contains("ho2 event 2\n"), ctx);
    assertTrue(ctx.contains("## recent_wo_failures (ho1)\n- " + ts(30) + " WO_FAILED OK: a failed work order\n"), ctx);
    assertTrue(ctx.contains("## recent_wo_executions (ho1)\n- " + ts(31) + " WO_COMPLETED "), ctx);
    assertFalse(ctx.contains("a completed work order"), ctx);
    assertEquals(12, r.fragmentCount());
    assertTrue(ctx.indexOf("ho2 event 3") < ctx.indexOf("ho2 event 12"), "chronological within a section");
  }

  /** A WO_COMPLETED as HO1's finish step writes it: type, contract, cost and the whole output. */
  void completion(String sid, int turn, int seq, String woType, String contract, long in, long out, int llmCalls,
      int toolCalls, double cost, String output, int second) {
    String woId = WorkOrderIds.workOrder(sid, turn, seq);
    ObjectNode m = Json.object().put("tier", "ho1").put("wo_id", woId).put("session_id", sid).put("wo_type", woType)
        .put("contract_id", contract).put("completed_at", ts(second));
    m.set("cost", Json.tree(new cp.model.WoCost(in, out, 0, llmCalls, toolCalls, cost)));
    m.set("output_result", Json.object().put("response_text", output));
    ledgers.ho1().write(LedgerEntry.builder("WO_COMPLETED").submissionId(woId).decision("COMPLETED")
        .reason("executing -> completed").metadata(m).timestamp(ts(second)).build());
  }

  /** A TOOL_CALL as HO1 writes it, with the tool's whole result. */
  void toolCall(String sid, int turn, int seq, String tool, String result, int second) {
    String woId = WorkOrderIds.workOrder(sid, turn, seq);
    ObjectNode m = Json.object().put("tier", "ho1").put("wo_id", woId).put("session_id", sid).put("round", 1)
        .put("tool_id", tool).put("tool_use_id", "toolu_" + second).put("status", "ok").put("result", result);
    ledgers.ho1().write(LedgerEntry.builder("TOOL_CALL").submissionId(woId).decision("OK").reason(tool + " ok")
        .metadata(m).timestamp(ts(second)).build());
  }

  // Issue 11 item 5 (seed 001 Q4: the horizontal scan reads recent HO1m): a completed work order is one
  // compact line (id, type, the tools it used, tokens and cost), never its output or its tools' results.
  @Test
  void horizontalScan_summarizesRecentWorkOrderExecutions_withToolsAndCost_withoutTranscripts() {
    completion(SID, 1, 1, "classify", ContractIds.CLASSIFY, 3000, 40, 1, 0, 0.0, "classifier words", 1);
    toolCall(SID, 1, 2, "list_packages", "PRC-CLASSIFY-001 sha256 deadbeef", 2);
    toolCall(SID, 1, 2, "read_file", "the file's secret text", 3);
    toolCall(SID, 1, 2, "list_packages", "PRC-CLASSIFY-001 sha256 deadbeef", 4);
    completion(SID, 1, 2, "synthesize", ContractIds.SYNTHESIZE, 5893, 182, 3, 3, 0.0123, "the answer's words", 5);
    AttentionResult r = admin(2);
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("## recent_wo_executions (ho1)\n"), ctx);
    String wo1 = WorkOrderIds.workOrder(SID, 1, 1);
    String wo2 = WorkOrderIds.workOrder(SID, 1, 2);
    assertTrue(ctx.contains("- " + ts(1) + " WO_COMPLETED " + wo1 + " classify (" + ContractIds.CLASSIFY
        + "): no tools; 1 LLM call, 3000 in / 40 out tokens, $0.0000\n"), ctx);
    assertTrue(ctx.contains("- " + ts(5) + " WO_COMPLETED " + wo2 + " synthesize (" + ContractIds.SYNTHESIZE
        + "): tools list_packages x2, read_file; 3 LLM calls, 5893 in / 182 out tokens, $0.0123\n"), ctx);
    for (String transcript : List.of("classifier words", "the answer's words", "deadbeef", "secret text",
        "response_text", "executing -> completed")) {
      assertFalse(ctx.contains(transcript), "no transcript text (" + transcript + "): " + ctx);
    }
  }

  // Issue 11 item 5: the execution lines respect the budget and are the first to go when it is short,
  // even when they are newer than every other event.
  @Test
  void maxContextTokens_dropsTheWorkOrderExecutionLinesFirst() {
    turnsAndEvents();
    for (int i = 1; i <= 6; i++) {
      completion(SID, 4, i, "synthesize", ContractIds.SYNTHESIZE, 100 * i, 10, 1, 0, 0.0, "words", 20 + i);
    }
    ObjectNode full = template("ATT-WOX-001", List.of(tiers("hot", "ho2", "ho1"), conversation(),
        query("recent_events", "ho2", null, 10, "all"), query("recent_wo_executions", "ho1", "WO_COMPLETED", 10, "all"),
        halt(0)), 100_000, 5, 5_000, "return_partial", "proceed_empty");
    Catalog all = TestCatalogs.shippedPlus(catalogDir, full);
    AttentionResult untrimmed = assembler(all).assemble(request("ADMIN", "ATT-WOX-001", 5), "k-all");
    String whole = context("ADMIN", untrimmed);
    assertEquals(6, whole.split(" WO_COMPLETED ", -1).length - 1, whole);
    assertFalse(untrimmed.partial());
    long budget = untrimmed.tokens() - 40;
    ObjectNode tight = full.deepCopy().put("template_id", "ATT-WOX-002");
    ((ObjectNode) tight.get("budget")).put("max_context_tokens", budget);
    Catalog c = TestCatalogs.shippedPlus(catalogDir, tight);
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-WOX-002", 5), "k-tight");
    String ctx = context("ADMIN", r);
    assertTrue(r.partial());
    assertTrue(r.tokens() <= budget, "max_context_tokens " + budget + ", got " + r.tokens());
    for (int i = 1; i <= 5; i++) {
      assertTrue(ctx.contains("WO_PLANNED OK: event " + i + "\n"), "older HO2 events stay while executions go: " + ctx);
    }
    for (int t = 1; t <= 4; t++) {
      assertTrue(ctx.contains("[turn " + t + "] User: question " + t + "\n"), ctx);
    }
    int left = ctx.split(" WO_COMPLETED ", -1).length - 1;
    assertTrue(left < 6, ctx);
    assertFalse(ctx.contains(WorkOrderIds.workOrder(SID, 4, 1) + " "), "the oldest execution goes first: " + ctx);
  }

  // Seed 001 Q4 + Q6: recency "session" scopes the scan; RESIDENT reads only its own HO2 ledger.
  @Test
  void horizontalScan_withSessionRecency_readsOnlyThisSessionsEntriesOfItsOwnLedger() {
    event(ledgers.ho2("RESIDENT"), SID, "WO_PLANNED", "mine", 1);
    event(ledgers.ho2("RESIDENT"), OTHER, "WO_PLANNED", "another session's", 2);
    event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "ADMIN's ledger", 3);
    AttentionResult r = assembler(shipped).assemble(request("RESIDENT", "ATT-RESIDENT-001", 1), "k");
    String ctx = context("RESIDENT", r);
    assertTrue(ctx.contains("## session_ho2_events (ho2)\n- " + ts(1) + " WO_PLANNED OK: mine\n"), ctx);
    assertFalse(ctx.contains("another session's"), ctx);
    assertFalse(ctx.contains("ADMIN's ledger"), ctx);
    assertEquals(1, r.fragmentCount());
  }

  // Seed 001 Q3/Q4: the priority probe of an absent HO3m gives nothing, fails nothing, creates nothing.
  @Test
  void priorityProbe_withNoHo3Ledger_addsNoFragmentsAndNoError() {
    AttentionResult r = admin(1);
    assertEquals(0, r.fragmentCount());
    assertEquals(5, r.queries(), "every ledger_query stage of ATT-ADMIN-001 ran");
    assertFalse(r.partial());
    assertFalse(context("ADMIN", r).contains("north_stars"));
    assertFalse(Files.exists(ledgers.layout().ledgerPath(Tier.HO3, null)), "the probe must not create HO3m");
    assertEquals("EMPTY", recorded("ADMIN", r).decision());
  }

  // Seed 001 Q4: priority_probe reads HO3m north stars when there are some.
  @Test
  void priorityProbe_withHo3Entries_addsTheNorthStars() {
    event(ledgers.ho3(), "HO3", "NORTH_STAR", "never invent ledger entries", 1);
    AttentionResult r = admin(1);
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("## north_stars (ho3)\n- " + ts(1) + " NORTH_STAR OK: never invent ledger entries\n"), ctx);
    assertEquals(1, r.fragmentCount());
  }

  // Seed 001 Q4 (FMWK-009 visibility): a tier the template did not select is never read.
  @Test
  void tierSelect_excludesTheTiersItDoesNotSelect() {
    answer(SID, 1, "hello", "Hi", 1);
    event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "visible ho2", 2);
    event(ledgers.ho1(), SID, "WO_FAILED", "invisible ho1", 3);
    event(ledgers.ho3(), "HO3", "NORTH_STAR", "invisible ho3", 4);
    Catalog c = TestCatalogs.unchecked(template("ATT-NARROW-001", List.of(tiers("hot", "ho2"), conversation(),
        query("ho2_events", "ho2", null, 10, "all"), query("ho1_failures", "ho1", "WO_FAILED", 10, "all"),
        query("north_stars", "ho3", null, 10, "all"), halt(0)), 10_000, 20, 5_000, "return_partial", "proceed_empty"));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-NARROW-001", 2), "k");
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("visible ho2"), ctx);
    assertTrue(ctx.contains("[turn 1] Assistant: Hi"), ctx);
    assertFalse(ctx.contains("invisible"), ctx);
    assertEquals(2, r.queries(), "unselected tiers are not queried");
  }

  // ------------------------------------------------------------------ budget

  // Seed 003 ATT-ADMIN-001 budget.max_queries: assembly stops querying and says it is partial.
  @Test
  void maxQueries_stopsFurtherQueries_andMarksTheContextPartial() {
    answer(SID, 1, "hello", "Hi", 1);
    event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "second query", 2);
    event(ledgers.ho1(), SID, "WO_FAILED", "third query", 3);
    Catalog c = TestCatalogs.unchecked(template("ATT-FEWQ-001", List.of(conversation(),
        query("ho2_events", "ho2", null, 10, "all"), query("ho1_failures", "ho1", "WO_FAILED", 10, "all"), halt(0)),
        10_000, 2, 5_000, "return_partial", "proceed_empty"));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-FEWQ-001", 2), "k");
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("second query"), ctx);
    assertFalse(ctx.contains("third query"), ctx);
    assertEquals(2, r.queries());
    assertTrue(r.partial());
    assertTrue(recorded("ADMIN", r).meta("partial").asBoolean());
  }

  // Seed 003 structuring max_tokens: a context cut short by the query budget still respects it.
  @Test
  void maxQueries_cuttingAssemblyShort_stillAppliesTheStructuringLimit() {
    for (int t = 1; t <= 5; t++) {
      answer(SID, t, "question " + t, "x".repeat(200), t);
    }
    Catalog c = TestCatalogs.unchecked(template("ATT-FEWQ-002", List.of(conversation(),
        query("ho2_events", "ho2", null, 10, "all"), structure(120), halt(0)),
        10_000, 1, 5_000, "return_partial", "proceed_empty"));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-FEWQ-002", 6), "k");
    assertTrue(r.partial());
    assertTrue(r.tokens() <= 120, "structure.max_tokens 120, got " + r.tokens());
    assertTrue(context("ADMIN", r).contains("[turn 5] Assistant: "), "the latest turn is kept");
  }

  /** Four turns of ~113 estimated tokens each, then five small HO2 events (newer than the turns). */
  void turnsAndEvents() {
    for (int t = 1; t <= 4; t++) {
      answer(SID, t, "question " + t, "x".repeat(400), t);
    }
    for (int i = 1; i <= 5; i++) {
      event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "event " + i, 10 + i);
    }
  }

  ObjectNode budgetTemplate(String id, int maxContextTokens, int structureMaxTokens) {
    return template(id, List.of(tiers("hot", "ho2"), conversation(), query("recent_events", "ho2", null, 10, "all"),
        structure(structureMaxTokens), halt(0)), maxContextTokens, 5, 5_000, "return_partial", "proceed_empty");
  }

  // Seed 003 budget.max_context_tokens: trimming drops the oldest ledger events before any turn.
  @Test
  void maxContextTokens_dropsTheOldestEventsFirst() {
    turnsAndEvents();
    Catalog c = TestCatalogs.shippedPlus(catalogDir, budgetTemplate("ATT-TRIM-001", 490, 490));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-TRIM-001", 5), "k");
    String ctx = context("ADMIN", r);
    for (int t = 1; t <= 4; t++) {
      assertTrue(ctx.contains("[turn " + t + "] User: question " + t + "\n"), "turn " + t + " kept: " + ctx);
    }
    assertFalse(ctx.contains("event 1\n"), ctx);
    assertTrue(ctx.contains("event 5\n"), "the newest event is kept: " + ctx);
    assertTrue(r.partial(), "a trimmed context is partial");
    assertTrue(r.tokens() <= 490, "max_context_tokens 490, got " + r.tokens());
  }

  // Seed 003 budget.max_context_tokens: when events are not enough, the oldest turns go; the latest stay.
  @Test
  void maxContextTokens_thenDropsTheOldestTurns_keepingTheLatest() {
    turnsAndEvents();
    Catalog c = TestCatalogs.shippedPlus(catalogDir, budgetTemplate("ATT-TRIM-002", 260, 260));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-TRIM-002", 5), "k");
    String ctx = context("ADMIN", r);
    assertFalse(ctx.contains("event "), "every event went before any turn: " + ctx);
    assertFalse(ctx.contains("[turn 1]"), ctx);
    assertTrue(ctx.contains("[turn 3] User: question 3\n"), ctx);
    assertTrue(ctx.contains("[turn 4] User: question 4\n[turn 4] Assistant: "), ctx);
    assertTrue(r.tokens() <= 260, "max_context_tokens 260, got " + r.tokens());
    assertEquals(r.tokens(), recorded("ADMIN", r).meta("tokens").asLong());
  }

  // Trimming never splits a turn: at any budget, a turn's user message and its answer go together.
  @Test
  void maxContextTokens_dropsATurnWhole_atEveryBudget() {
    turnsAndEvents();
    for (int budget = 40; budget <= 520; budget += 10) {
      String id = String.format("ATT-WHOLE-%03d", budget / 10);
      Catalog c = TestCatalogs.shippedPlus(catalogDir, budgetTemplate(id, budget, budget));
      AttentionResult r = assembler(c).assemble(request("ADMIN", id, 5), "k-" + budget);
      String ctx = context("ADMIN", r);
      for (int t = 1; t <= 4; t++) {
        boolean user = ctx.contains("[turn " + t + "] User: ");
        boolean assistant = ctx.contains("[turn " + t + "] Assistant: ");
        assertEquals(user, assistant, "budget " + budget + ", turn " + t + " split: " + ctx);
      }
      assertTrue(r.tokens() <= budget, "budget " + budget + ", got " + r.tokens());
    }
  }

  // Seed 003 structuring stage (max_tokens 8000 under a 10000 budget): the smaller limit wins.
  @Test
  void structuringMaxTokens_capsTheContextBelowTheTemplateBudget() {
    turnsAndEvents();
    Catalog c = TestCatalogs.shippedPlus(catalogDir, budgetTemplate("ATT-TRIM-003", 10_000, 260));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-TRIM-003", 5), "k");
    String ctx = context("ADMIN", r);
    assertFalse(ctx.contains("[turn 1]"), ctx);
    assertTrue(ctx.contains("[turn 4] Assistant: "), ctx);
    assertTrue(r.tokens() <= 260, "structure.max_tokens 260, got " + r.tokens());
  }

  // ------------------------------------------------------------------ halting and fallbacks

  // Seed 003 fallback.on_empty "fail": too few fragments is a clear, permanent failure.
  @Test
  void halting_belowMinFragments_withOnEmptyFail_failsClearlyAndWritesNothing() {
    answer(SID, 1, "hello", "Hi", 1);
    Catalog c = TestCatalogs.shippedPlus(catalogDir, template("ATT-STRICT-001",
        List.of(tiers("hot"), conversation(), halt(3)), 1_000, 1, 5_000, "return_partial", "fail"));
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> assembler(c).assemble(request("ADMIN", "ATT-STRICT-001", 2), "k"));
    assertEquals("attention_empty", f.getType());
    assertTrue(f.isNonRetryable());
    assertTrue(f.getOriginalMessage().contains("ATT-STRICT-001 found 2 fragments, fewer than min_fragments 3"),
        f.getOriginalMessage());
    assertFalse(Files.exists(ledgers.layout().ledgerPath(Tier.HO2, "ADMIN")), "no ATTENTION_ASSEMBLED");
  }

  // Seed 003 fallback.on_empty "proceed_empty" / test 12: nothing found still gives a usable, empty context.
  @Test
  void halting_belowMinFragments_withProceedEmpty_returnsAnEmptyContext() {
    Catalog c = TestCatalogs.shippedPlus(catalogDir, template("ATT-LAX-001",
        List.of(tiers("hot"), conversation(), halt(3)), 1_000, 1, 5_000, "return_partial", "proceed_empty"));
    AttentionResult r = assembler(c).assemble(request("ADMIN", "ATT-LAX-001", 1), "k");
    assertEquals(0, r.fragmentCount());
    assertEquals(0, r.tokens());
    assertEquals(Json.sha256(""), r.contextHash());
    LedgerEntry e = recorded("ADMIN", r);
    assertEquals("", e.metaText("context"));
    assertEquals("EMPTY", e.decision());
  }

  // Seed 003 budget.timeout_ms + fallback.on_timeout "return_partial": keep what was found, say so.
  @Test
  void timeout_withReturnPartial_keepsWhatWasFoundAndMarksItPartial() {
    answer(SID, 1, "hello", "Hi", 1);
    event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "found too late", 2);
    // Readings: the deadline, the first query's check; the clock jumps before the second query.
    AttentionAssembler a = new AttentionAssembler(shipped, ledgers, new JumpingClock(2));
    AttentionResult r = a.assemble(request("ADMIN", "ATT-ADMIN-001", 2), "k");
    String ctx = context("ADMIN", r);
    assertTrue(ctx.contains("[turn 1] Assistant: Hi"), ctx);
    assertFalse(ctx.contains("found too late"), ctx);
    assertTrue(r.partial());
    assertEquals(1, r.queries());
  }

  // Seed 003 fallback.on_timeout "fail": a timed-out assembly fails permanently with a clear message.
  @Test
  void timeout_withFail_throwsANonRetryableAttentionTimeout() {
    Catalog c = TestCatalogs.shippedPlus(catalogDir, template("ATT-PROMPT-001",
        List.of(tiers("hot"), conversation(), halt(0)), 1_000, 1, 250, "fail", "proceed_empty"));
    AttentionAssembler a = new AttentionAssembler(c, ledgers, new JumpingClock(1));
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> a.assemble(request("ADMIN", "ATT-PROMPT-001", 1), "k"));
    assertEquals("attention_timeout", f.getType());
    assertTrue(f.isNonRetryable());
    assertTrue(f.getOriginalMessage().contains("ATT-PROMPT-001 timed out after 250 ms"), f.getOriginalMessage());
  }

  // ------------------------------------------------------------------ the ATTENTION_ASSEMBLED record

  // Seed 003 (AssembledContext: context_text, context_hash, fragments) kept in HO2m, exactly.
  @Test
  void attentionAssembled_recordsTheExactContextItsHashAndItsCounts() {
    answer(SID, 1, "hello", "Hi there", 1);
    event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "planned", 2);
    AttentionResult r = admin(2);
    LedgerEntry e = recorded("ADMIN", r);
    String ctx = e.metaText("context");
    assertEquals("## session_conversation\n[turn 1] User: hello\n[turn 1] Assistant: Hi there\n"
        + "## recent_ho2_events (ho2)\n- " + ts(2) + " WO_PLANNED OK: planned\n", ctx);
    assertEquals("ATTENTION_ASSEMBLED", e.eventType());
    assertEquals("ATT-ADMIN-001", e.submissionId());
    assertEquals("ASSEMBLED", e.decision());
    assertEquals(Json.sha256(ctx), e.metaText("context_hash"));
    assertEquals(Json.sha256(ctx), r.contextHash());
    assertEquals(3, e.meta("fragment_count").asInt());
    assertEquals(3, r.fragmentCount());
    assertEquals(TokenEstimate.ofChars(ctx.length()), e.meta("tokens").asLong());
    assertEquals(r.tokens(), e.meta("tokens").asLong());
    assertEquals(5, e.meta("queries").asInt());
    assertEquals(r.queries(), e.meta("queries").asInt());
    assertEquals(SID, e.sessionId());
    assertEquals(2, e.meta("turn").asInt());
    assertEquals("ATT-ADMIN-001", e.metaText("template_id"));
    assertEquals("ho2", e.metaText("tier"));
  }

  // Idempotent activities (DESIGN §2): a retried assembly writes one entry and returns the same answer.
  @Test
  void sameIdempotencyKeyTwice_writesOneEntry_andReturnsTheRecordedResult() {
    answer(SID, 1, "hello", "Hi there", 1);
    event(ledgers.ho2("ADMIN"), SID, "WO_PLANNED", "planned", 2);
    AttentionAssembler a = assembler(shipped);
    AttentionResult first = a.assemble(request("ADMIN", "ATT-ADMIN-001", 2), "wf/run/ATTENTION_ASSEMBLED/2");
    AttentionResult again = a.assemble(request("ADMIN", "ATT-ADMIN-001", 2), "wf/run/ATTENTION_ASSEMBLED/2");
    assertEquals(1, ledgers.ho2("ADMIN").byEventType("ATTENTION_ASSEMBLED").size());
    assertEquals(first, again, "the retry must describe the context that was recorded");
    assertEquals(Json.sha256(context("ADMIN", again)), again.contextHash());
  }

  // DESIGN §3 (pass references, not transcripts): the result holds the entry id and hash, not the text.
  @Test
  void result_carriesTheReferenceAndHash_notTheContextText() {
    answer(SID, 1, "hello", "a reply that must stay in the ledger", 1);
    AttentionResult r = admin(2);
    JsonNode wire = Json.parse(Json.write(r));
    assertFalse(Json.write(r).contains("a reply that must stay in the ledger"), Json.write(r));
    assertEquals(r.contextRef(), wire.get("context_ref").asText());
    assertEquals(r.contextHash(), wire.get("context_hash").asText());
    Iterator<String> names = wire.fieldNames();
    List<String> fields = new java.util.ArrayList<>();
    names.forEachRemaining(fields::add);
    assertEquals(List.of("context_ref", "context_hash", "fragment_count", "tokens", "queries", "partial", "prior_turns"),
        fields);
  }
}
