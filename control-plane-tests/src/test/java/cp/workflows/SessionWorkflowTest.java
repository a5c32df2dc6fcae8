package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.common.SearchAttributes;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Session Host V2 behaviours (seed 002) and session limits (seed 003) on the test service. */
class SessionWorkflowTest {
  static final String SID = "SES-1a2b3c4d";
  FakeActivities.Ho1 ho1;
  FakeActivities.Ho2 ho2;
  FakeActivities.Session session;
  WorkflowHarness h;

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

  private SessionWorkflow start(int canAfter) {
    SessionWorkflow s = h.sessionStub(SID);
    WorkflowClient.start(s::run, new SessionInput(SID, "ADMIN", null, canAfter));
    return h.client.newWorkflowStub(SessionWorkflow.class, SID);
  }

  /** The turn_refused failure inside a refused turn Update (its innermost ApplicationFailure). */
  private static io.temporal.failure.ApplicationFailure turnRefused(WorkflowUpdateException e) {
    io.temporal.failure.ApplicationFailure af = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof io.temporal.failure.ApplicationFailure a) {
        af = a;
      }
    }
    assertNotNull(af, String.valueOf(e));
    assertEquals(cp.model.Refusal.TURN_REFUSED, af.getType());
    return af;
  }

  private static String updateError(Runnable r) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class, r::run);
    Throwable t = e;
    String msg = e.getMessage();
    while (t != null) {
      msg = t.getMessage();
      t = t.getCause();
    }
    return msg;
  }

  @Test
  void twoTurnsThenEnd_writesStartAndEnd_andCountsTokensAcrossTurns() {
    SessionWorkflow s = start(0);
    TurnResult t1 = s.turn(new TurnRequest("hello"));
    TurnResult t2 = s.turn(new TurnRequest("what packages are installed?"));
    assertEquals(1, t1.turn());
    assertEquals(2, t2.turn());
    assertEquals(TurnOutcome.SUCCESS, t2.outcome());
    assertEquals(200, t1.costSummary().sessionTokensUsed());
    assertEquals(400, t2.costSummary().sessionTokensUsed());
    assertEquals(100_000 - 400, t2.costSummary().sessionTokensRemaining());
    SessionState st = s.state();
    assertEquals(2, st.turns());
    assertEquals(400, st.tokensUsed());
    assertEquals(TurnOutcome.SUCCESS, st.lastOutcome());
    SessionSummary sum = s.end();
    assertEquals(2, sum.turns());
    assertEquals("end", sum.endReason());
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
    assertEquals(400, session.events.get(1).metadata().get("tokens_used").asLong());
    SessionSummary result = WorkflowStub.fromTyped(s).getResult(SessionSummary.class);
    assertEquals(sum, result);
  }

  @Test
  void turnsRunAsChildWorkflowsNamedAfterTheSession() {
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("hello"));
    WorkflowStub child = h.client.newUntypedWorkflowStub(SID + "/turn-0001");
    TurnResult r = child.getResult(TurnResult.class);
    assertEquals(1, r.turn());
  }

  @Test
  void validator_rejectsEmptyOversizedAndControlCharacterMessages_writingNothing() {
    SessionWorkflow s = start(0);
    assertTrue(updateError(() -> s.turn(new TurnRequest("   "))).contains("empty"));
    String big = "x".repeat(1001);
    assertTrue(updateError(() -> s.turn(new TurnRequest(big))).contains("limit is 1000 bytes"));
    assertTrue(updateError(() -> s.turn(new TurnRequest("bell\u0007"))).contains("U+0007"));
    assertTrue(updateError(() -> s.turn(new TurnRequest(null))).contains("empty"));
    assertEquals(0, s.state().turns());
    assertTrue(ho1.rounds.isEmpty());
    assertEquals(List.of("SESSION_START"), session.types());
  }

  @Test
  void turnAfterEnd_isRefused_becauseTheSessionWorkflowHasCompleted() {
    SessionWorkflow s = start(0);
    s.end();
    assertThrows(io.temporal.client.WorkflowException.class, () -> s.turn(new TurnRequest("hello")));
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
  }

  // An end (or a turn) that arrives while SESSION_START is still being written must wait for it: the
  // ledger read [SESSION_END, SESSION_START] under load before.
  @Test
  void endArrivingWhileSessionStartIsWritten_waitsForIt() {
    session.sessionStartMillis = 500;
    SessionWorkflow s = start(0);
    s.end();
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
  }

  @Test
  void turnArrivingWhileSessionStartIsWritten_runsAfterIt() {
    session.sessionStartMillis = 500;
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("hello"));
    s.end();
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
    assertEquals(1, WorkflowStub.fromTyped(s).getResult(SessionSummary.class).turns());
  }

  @Test
  void endTwice_isRejectedByTheValidatorOrBecauseTheWorkflowIsClosed() {
    SessionWorkflow s = start(0);
    s.end();
    assertThrows(io.temporal.client.WorkflowException.class, s::end);
    assertEquals(1, session.types().stream().filter("SESSION_END"::equals).count());
  }

  @Test
  void turnLimit_isEnforced() {
    session.profile = FakeActivities.profile(100_000, 2);
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("one"));
    s.turn(new TurnRequest("two"));
    long rounds = ho1.rounds.size();
    // The session ended with its second turn (turn_limit): a third is refused, by the validator
    // while SESSION_END is being written, or by the service once the workflow has completed.
    assertThrows(io.temporal.client.WorkflowException.class, () -> s.turn(new TurnRequest("three")));
    assertEquals(rounds, ho1.rounds.size(), "no third turn ran");
    assertEquals(2, WorkflowStub.fromTyped(s).getResult(SessionSummary.class).turns());
  }

  @Test
  void tokenCeiling_holdsAcrossTurns() {
    session.profile = FakeActivities.profile(450, 50);
    SessionWorkflow s = start(0);
    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("one")).outcome());
    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("two")).outcome());
    TurnResult third = s.turn(new TurnRequest("three"));
    assertEquals("budget_exhausted", third.errorCode());
    assertTrue(third.costSummary().sessionTokensUsed() <= 500, "at most one call past the ceiling's estimate");
    String msg = updateError(() -> s.turn(new TurnRequest("four")));
    assertTrue(msg.contains("token budget"), msg);
  }

  @Test
  void ho2Failure_degradesToOneDirectCall_andRecordsDegradation() {
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    session.spend.put(SID + "/turn-0001", 70L);
    TurnResult r = s.turn(new TurnRequest("hello"));
    assertEquals(TurnOutcome.DEGRADED, r.outcome());
    assertEquals("degraded answer", r.response());
    assertEquals(1, ho1.degraded.size());
    assertEquals("hello", ho1.degraded.get(0).userMessage());
    assertEquals(100_000 - 70, ho1.degraded.get(0).tokenBudgetRemaining());
    assertEquals(List.of("SESSION_START", "DEGRADATION"), session.types());
    var meta = session.events.get(1).metadata();
    assertEquals("ho2_failed", meta.get("error_type").asText());
    assertTrue(meta.get("error_message").asText().contains("gateway_error"));
    assertEquals(70 + 15, r.costSummary().totalTokens(), "the failed turn's spend and the degraded call are both debited");
    assertEquals(1, s.state().degradedTurns());
  }

  @Test
  void theDegradedCall_reservesAgainstWhatTheSessionsDollarBudgetHasLeft_andIsNotMadeWhenNothingIs() {
    session.profile = FakeActivities.profile(100_000, 50).withUsd(0.03, 0.05, 0.004, 1.0);
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    ho1.degradedCost = 0.01;
    session.spendDetail.put(SID + "/turn-0001", new cp.model.WoCost(60, 10, 70, 1, 0, 0.02));
    TurnResult first = s.turn(new TurnRequest("hello"));
    assertEquals(TurnOutcome.DEGRADED, first.outcome());
    assertEquals(0.03, ho1.degraded.get(0).usdBudgetRemaining(), 1e-9,
        "the cap less the failed turn's $0.02: the call reserves against it like any other");

    // Turn 2 is admitted ($0.02 left), and its failed supervisor spends the rest: no degraded call.
    session.spendDetail.put(SID + "/turn-0002", new cp.model.WoCost(60, 10, 70, 1, 0, 0.02));
    TurnResult second = s.turn(new TurnRequest("again"));
    assertEquals(TurnOutcome.ERROR, second.outcome());
    assertEquals("budget_exhausted", second.errorCode());
    assertTrue(second.response().contains("dollar budget is used up") && second.response().contains("$0.0500"),
        second.response());
    assertEquals(1, ho1.degraded.size(), "nothing left: the last resort is not sent");
  }

  @Test
  void aDegradedCallTheSessionsDollarsCannotPayFor_saysSo_notTheTokens() {
    session.profile = FakeActivities.profile(100_000, 50).withUsd(0.03, 0.05, 0.004, 1.0);
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    ho1.refuseDegraded = "budget_exhausted";
    ho1.refuseDegradedMessage = cp.model.UsdBudgets.refusal(cp.model.UsdBudgets.SESSION, 0.05, 0.09,
        "claude-sonnet-4-5, 4000 max_tokens");
    TurnResult r = s.turn(new TurnRequest("hello"));
    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertEquals("budget_exhausted", r.errorCode());
    assertTrue(r.response().contains("USD budget (session) has $0.0500 left") && r.response().contains("does not"
        + " reset"), r.response());
    assertFalse(r.response().contains("token budget"), r.response());
  }

  @Test
  void ho2AndDegradedCallBothFailing_returnsTemporarilyUnavailable() {
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    ho1.failDegraded = true;
    TurnResult r = s.turn(new TurnRequest("hello"));
    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertTrue(r.response().contains("temporarily unavailable"), r.response());
    assertEquals("unavailable", r.errorCode());
    assertEquals(1, s.state().turns(), "the failed turn still counts");
  }

  @Test
  void idleTimeout_endsTheSessionWithSessionEnd() {
    session.profile = new cp.model.AgentProfile("ADMIN", "a", "f", "ATT-ADMIN-001", List.of(), 100_000, 50, 7200, 60,
        4000, 3, 120, 1000, 2, 200);
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("hello"));
    h.env.sleep(Duration.ofSeconds(61));
    SessionSummary sum = WorkflowStub.fromTyped(s).getResult(SessionSummary.class);
    assertEquals("idle_timeout", sum.endReason());
    assertEquals(1, sum.turns());
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
  }

  // A session that expires while the ledger refuses SESSION_END (more failures than one local
  // activity's attempts) waits and writes it again: it ends with exactly one SESSION_END, and
  // takes no turn while it waits.
  @Test
  void idleTimeout_whenSessionEndCannotBeWritten_retriesUntilItIs_andRefusesTurnsMeanwhile() {
    session.profile = ReplayTest.idleProfile();
    session.failSessionEndWrites.set(ReplayTest.IDLE_END_FAILED_WRITES);
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("hello"));
    h.env.sleep(Duration.ofSeconds(61));
    assertTrue(session.failSessionEndWrites.get() < ReplayTest.IDLE_END_FAILED_WRITES, "SESSION_END was tried");
    assertTrue(updateError(() -> s.turn(new TurnRequest("still there?"))).contains("has ended"));

    SessionSummary sum = WorkflowStub.fromTyped(s).getResult(SessionSummary.class);

    assertEquals("idle_timeout", sum.endReason());
    assertEquals(1, sum.turns());
    assertEquals(0, session.failSessionEndWrites.get(), "every failing write was tried");
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
  }

  @Test
  void continueAsNew_carriesTurnsAndBudget_andKeepsTheSessionId() {
    SessionWorkflow s = start(2);
    String firstRun = WorkflowStub.fromTyped(s).getExecution().getRunId();
    for (int i = 1; i <= 5; i++) {
      TurnResult r = h.client.newWorkflowStub(SessionWorkflow.class, SID).turn(new TurnRequest("turn " + i));
      assertEquals(i, r.turn());
      assertEquals(i * 200L, r.costSummary().sessionTokensUsed());
    }
    SessionWorkflow latest = h.client.newWorkflowStub(SessionWorkflow.class, SID);
    SessionState st = latest.state();
    assertEquals(5, st.turns());
    assertEquals(1000, st.tokensUsed());
    assertTrue(st.runs() >= 3, "runs=" + st.runs());
    String runNow = h.client.newUntypedWorkflowStub(SID).describe().getExecution().getRunId();
    assertNotEquals(firstRun, runNow);
    assertEquals(List.of("SESSION_START"), session.types(), "continue-as-new does not start the session again");
    assertFalse(st.ended());
  }

  // Seed 002 test 11 (auto-start on the first turn): a turn sent together with the start
  // (update-with-start) waits for the session to load its profile and runs as turn 1.
  @Test
  void firstTurnSentWithTheStart_runsAsTurnOne() {
    SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(SID)
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
        .setTypedSearchAttributes(SearchAttributes.newBuilder()
            .set(CpSearchAttributes.SESSION_ID, SID).set(CpSearchAttributes.AGENT_CLASS, "ADMIN")
            .set(CpSearchAttributes.TURN, 0L).build())
        .build());
    WithStartWorkflowOperation<SessionSummary> start =
        new WithStartWorkflowOperation<>(stub::run, new SessionInput(SID, "ADMIN", null, 0));
    TurnResult r = WorkflowClient.executeUpdateWithStart(stub::turn, new TurnRequest("hello"),
        UpdateOptions.<TurnResult>newBuilder().setWaitForStage(WorkflowUpdateStage.COMPLETED).build(), start);
    assertEquals(1, r.turn());
    assertEquals(TurnOutcome.SUCCESS, r.outcome());
    SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, SID);
    assertEquals(1, s.state().turns());
    assertEquals(List.of("SESSION_START"), session.types());
  }

  /** What the ledger says when HOT refuses appends (LedgerProblem's words). */
  static final String HOT_BROKEN = "HOT ledger HOT/ledger/governance.jsonl cannot be written: its hash chain is broken"
      + " at line 2 (not valid JSON); run 'cpctl ledger verify' and 'cpctl ledger repair --tier hot'";

  // Issue 11 item 8: a HOT ledger that refuses appends under a running session.
  @Test
  void aHotLedgerThatRefusesAppends_turnAnswersWithItsLine_andEndFinishesSayingSessionEndIsNotRecorded() {
    SessionWorkflow s = start(0);
    s.state();
    ho1.hotUnwritable = HOT_BROKEN;
    session.hotUnwritable = HOT_BROKEN;

    TurnResult r = s.turn(new TurnRequest("hello"));

    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("ledger_unwritable", r.errorCode());
    assertEquals("This turn could not run: " + HOT_BROKEN, r.response());
    assertEquals(1, ho1.rounds.size(), "the classify round failed once, not retried");
    assertEquals(1, ho1.degraded.size());
    assertEquals(List.of("SESSION_START"), session.types());

    SessionSummary sum = s.end();
    assertEquals("SESSION_END could not be written: " + HOT_BROKEN, sum.endNotRecorded());
    assertEquals("end", sum.endReason());
    assertEquals(1, sum.turns());
    assertEquals(List.of("SESSION_START"), session.types());
    io.temporal.client.WorkflowStub.fromTyped(s).getResult(SessionSummary.class);
  }

  @Test
  void aFullDiskAtEnd_failsTheUpdateAndKeepsTheSessionForALaterEnd() {
    SessionWorkflow s = start(0);
    s.state();
    session.failSessionEndWrites.set(100);
    String msg = updateError(s::end);
    assertTrue(msg.contains("No space left on device"), msg);
    session.failSessionEndWrites.set(0);
    assertEquals(null, s.end().endNotRecorded());
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
  }

  // Seed 002 test 13 (degradation log failure is non-fatal): when DEGRADATION cannot be written,
  // the user still gets the degraded answer and the session goes on.
  @Test
  void degradationThatCannotBeLogged_stillAnswersDegraded() {
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    session.failDegradationLog = true;
    TurnResult r = s.turn(new TurnRequest("hello"));
    assertEquals(TurnOutcome.DEGRADED, r.outcome());
    assertEquals("degraded answer", r.response());
    assertEquals(1, ho1.degraded.size());
    assertEquals(List.of("SESSION_START"), session.types(), "the DEGRADATION write failed");
    assertEquals(1, s.state().degradedTurns());
    assertEquals(2, s.turn(new TurnRequest("again")).turn(), "the session goes on");
  }

  // Seed 003 test 23 (timeout enforced): budget.timeout_seconds ends the session even while it
  // is in use, with SESSION_END and reason session_timeout.
  @Test
  void sessionLifetime_endsTheSessionEvenWhileItIsActive() {
    session.profile = new cp.model.AgentProfile("ADMIN", "a", "f", "ATT-ADMIN-001", List.of(), 100_000, 50, 120, 100,
        4000, 3, 120, 1000, 2, 200);
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("one"));
    h.env.sleep(Duration.ofSeconds(60));
    s.turn(new TurnRequest("two"));
    h.env.sleep(Duration.ofSeconds(61));
    SessionSummary sum = WorkflowStub.fromTyped(s).getResult(SessionSummary.class);
    assertEquals("session_timeout", sum.endReason());
    assertEquals(2, sum.turns());
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
    assertEquals("session_timeout", session.events.get(1).metadata().get("end_reason").asText());
  }

  // Seed 003 test 22 (turn limit enforced): the session ends when its last allowed turn
  // completes, with SESSION_END and end_reason turn_limit, not when the user leaves.
  @Test
  void turnLimit_endsTheSessionWhenTheLastAllowedTurnCompletes() {
    session.profile = FakeActivities.profile(100_000, 2);
    SessionWorkflow s = start(0);
    s.turn(new TurnRequest("one"));
    TurnResult last = s.turn(new TurnRequest("two"));
    assertEquals(TurnOutcome.SUCCESS, last.outcome());
    SessionSummary sum = WorkflowStub.fromTyped(s).getResult(SessionSummary.class);
    assertEquals("turn_limit", sum.endReason());
    assertEquals(2, sum.turns());
    assertEquals(List.of("SESSION_START", "SESSION_END"), session.types());
    var meta = session.events.get(1).metadata();
    assertEquals("turn_limit", meta.get("end_reason").asText());
    assertEquals(400, meta.get("tokens_used").asLong());
    assertEquals("all 2 turns its agent allows were used", sum.endDetail());
    assertNotNull(sum.endedAt());
  }

  // Seed 002: the DEGRADATION entry carries the session id, the agent id and the error type.
  @Test
  void degradation_carriesSessionIdAgentIdAndErrorType() {
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    s.turn(new TurnRequest("hello"));
    var meta = session.events.get(1).metadata();
    assertEquals("DEGRADATION", session.events.get(1).eventType());
    assertEquals(SID, meta.get("session_id").asText());
    assertEquals("admin-001", meta.get("agent_id").asText());
    assertEquals("ADMIN", meta.get("agent_class").asText());
    assertEquals("ho2_failed", meta.get("error_type").asText());
  }

  // Issue 11 item 8 (costs): a degraded turn reports what it spent, the failed turn's calls from
  // the ledger (tokens and money) plus the degraded call's, and the session counts the same.
  @Test
  void degradedTurn_reportsTheFailedTurnsAndTheDegradedCallsTokensAndCost() {
    SessionWorkflow s = start(0);
    ho1.failGateway = true;
    ho1.degradedCost = 0.000756;
    session.spendDetail.put(SID + "/turn-0001", new cp.model.WoCost(60, 10, 0, 1, 0, 0.0005));
    TurnResult r = s.turn(new TurnRequest("hello"));
    assertEquals(TurnOutcome.DEGRADED, r.outcome());
    assertEquals(60 + 10, r.costSummary().inputTokens());
    assertEquals(10 + 5, r.costSummary().outputTokens());
    assertEquals(70 + 15, r.costSummary().totalTokens());
    assertEquals(2, r.costSummary().llmCalls());
    assertEquals(0.0005 + 0.000756, r.costSummary().cost(), 1e-12);
    SessionState st = s.state();
    assertEquals(85, st.tokensUsed());
    assertEquals(0.0005 + 0.000756, st.cost(), 1e-12);
    var meta = session.events.get(1).metadata();
    assertEquals(70, meta.get("tokens_spent_by_failed_turn").asLong());
    assertEquals(0.0005, meta.get("cost_of_failed_turn").asDouble(), 1e-12);
  }

  // Issue 11 item 8 (a hanging provider): budget.turn_timeout_seconds bounds the wait for a turn.
  // When it passes the user gets an honest error promptly, the hanging call is cancelled, and
  // the session takes the next turn.
  @Test
  void turnDeadline_answersHonestlyWhenItPasses_andTheSessionGoesOn() throws Exception {
    session.profile = FakeActivities.profile(100_000, 50).withTurnTimeoutSeconds(2);
    ho1.hangSynthesize = new java.util.concurrent.CountDownLatch(1);
    session.spendDetail.put(SID + "/turn-0001", new cp.model.WoCost(50, 50, 0, 1, 0, 0.001));
    SessionWorkflow s = start(0);
    long t0 = System.nanoTime();
    TurnResult r = s.turn(new TurnRequest("hello"));
    long waitedMs = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertEquals("turn_deadline_exceeded", r.errorCode());
    assertTrue(r.response().contains("2 s") && r.response().contains("budget.turn_timeout_seconds"), r.response());
    assertTrue(waitedMs < 15_000, "answered after " + waitedMs + " ms");
    assertEquals(100, r.costSummary().totalTokens(), "what the turn's EXCHANGEs hold is counted");
    assertEquals(0.001, r.costSummary().cost(), 1e-12);
    assertEquals(100, s.state().tokensUsed());
    assertTrue(ho1.hangCancelled.await(10, java.util.concurrent.TimeUnit.SECONDS),
        "the hanging synthesize call was cancelled");
    assertTrue(ho1.degraded.isEmpty(), "a turn past its deadline is answered, not degraded");
    h.env.sleep(Duration.ofSeconds(1));
    assertEquals(List.of("SESSION_START"), session.types(), "no DEGRADATION for the cancelled turn");
    ho1.hangSynthesize = null;
    TurnResult next = s.turn(new TurnRequest("again"));
    assertEquals(TurnOutcome.SUCCESS, next.outcome());
    assertEquals(2, next.turn());
  }

  /**
   * Issue 20 §2: a RESIDENT session with 138 of 60,000 tokens left started turn after turn, each
   * failed, counted against the turn limit and blamed a work order's budget. Now the session
   * refuses the turn up front, naming its own budget (typed: level, cap, spent, needed), when it
   * cannot pay for the turn's smallest call; nothing runs and no turn is used.
   */
  @Test
  void aSessionThatCannotPayForItsSmallestCall_refusesTheTurnUpFront_namingTheSessionBudget() {
    session.profile = new cp.model.AgentProfile("RESIDENT", "resident-001", "FMWK-005", "ATT-RESIDENT-001", List.of(),
        60_000, 20, 3600, 900, 16_000, 3, 120, 32_000, 2, 200).withSmallestCallTokens(1_600);
    ho1.tokensPerCall = 29_932; // classify 29,932 + synthesize 29,930: 59,862 tokens, 138 left
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Answered(new cp.model.LlmRoundResult.Exchange("LED-big", 29_000,
        930, 0.01, "fake-model", false, "stop"), "{\"response_text\":\"noted\"}");
    SessionWorkflow s = start(0);
    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("remember this")).outcome());
    assertEquals(138, s.state().tokensRemaining());
    int llmCallsBefore = ho1.rounds.size();

    io.temporal.client.WorkflowUpdateException e = assertThrows(io.temporal.client.WorkflowUpdateException.class,
        () -> s.turn(new TurnRequest("and now?")));

    io.temporal.failure.ApplicationFailure af = turnRefused(e);
    cp.model.Refusal refusal = af.getDetails().get(0, cp.model.Refusal.class);
    assertEquals("budget_exhausted", refusal.code());
    assertEquals("session", refusal.level());
    assertEquals(60_000L, refusal.cap());
    assertEquals(59_862L, refusal.spent());
    assertEquals(1_600L + 2, refusal.needed(), "the smallest call plus the message's own estimate");
    assertTrue(af.getOriginalMessage().contains("138 of 60000 tokens left (budget.session_token_limit)"),
        af.getOriginalMessage());
    assertFalse(af.getOriginalMessage().contains("wo_token_budget"), af.getOriginalMessage());
    assertEquals(1, s.state().turns(), "the refused turn used no turn of the limit");
    assertEquals(llmCallsBefore, ho1.rounds.size(), "nothing ran");
  }

  /**
   * Issue 23: a session one call from its dollar budget ({@code budget.session_usd}) is refused up
   * front, before any provider call, naming the session's dollar budget (typed: level, currency,
   * cap, spent, needed, resets never), not a token budget and not a work order's.
   */
  @Test
  void aSessionOneCallFromItsSessionUsd_isRefusedUpFront_namingTheSessionDollarBudget() {
    // $0.05 a session; the smallest call costs at most $0.004 for an empty message, $1/Mtok per message token.
    session.profile = FakeActivities.profile(100_000, 50).withUsd(null, 0.05, 0.004, 1.0);
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Answered(new cp.model.LlmRoundResult.Exchange("LED-usd", 900,
        100, 0.047, "fake-model", false, "stop"), "{\"response_text\":\"noted\"}");
    SessionWorkflow s = start(0);
    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("remember this")).outcome());
    assertEquals(0.048, s.state().cost(), 1e-9, "classify $0.001 + synthesize $0.047");
    assertEquals(0.05, ho1.rounds.get(0).usdBudgetRemaining(), 1e-9, "the first call reserves against the whole cap");
    assertEquals("session", ho1.rounds.get(0).usdBudgetLevel());
    assertEquals(0.049, ho1.rounds.get(1).usdBudgetRemaining(), 1e-9, "the classify call's cost was debited");
    int llmCallsBefore = ho1.rounds.size();

    io.temporal.client.WorkflowUpdateException e = assertThrows(io.temporal.client.WorkflowUpdateException.class,
        () -> s.turn(new TurnRequest("and now?")));

    io.temporal.failure.ApplicationFailure af = turnRefused(e);
    cp.model.Refusal refusal = af.getDetails().get(0, cp.model.Refusal.class);
    assertEquals("budget_exhausted", refusal.code());
    assertEquals("session", refusal.level());
    assertEquals("usd", refusal.currency());
    assertEquals(0.05, refusal.capUsd(), 1e-12);
    assertEquals(0.048, refusal.spentUsd(), 1e-9);
    assertEquals(0.004 + 2 / 1_000_000.0, refusal.neededUsd(), 1e-12, "the smallest call plus the message's tokens");
    assertEquals("never", refusal.resets());
    assertTrue(af.getOriginalMessage().contains("$0.0020 of $0.0500 left (budget.session_usd)"), af.getOriginalMessage());
    assertFalse(af.getOriginalMessage().contains("token budget") || af.getOriginalMessage().contains("token_"),
        af.getOriginalMessage());
    assertEquals(1, s.state().turns(), "the refused turn used no turn of the limit");
    assertEquals(llmCallsBefore, ho1.rounds.size(), "nothing ran");
  }

  /**
   * Issue 23 (tenant-admission 1): before each turn the session asks whether its tenant's caps can
   * pay for the turn's smallest call; refused, the turn is refused up front naming the tenant level,
   * and nothing runs. Before, the session never asked, and the turn ran until the gateway refused.
   */
  @Test
  void aTenantWhoseCapCannotPayTheSmallestCall_isRefusedUpFront_namingTheTenantLevel() {
    SessionWorkflow s0 = h.sessionStub(SID);
    WorkflowClient.start(s0::run, new SessionInput(SID, "ADMIN", null, 0).withTenant("acme"));
    SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, SID);
    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("hello")).outcome());
    assertEquals(1, session.tenantChecks.size());
    assertEquals("acme", session.tenantChecks.get(0).tenant());
    assertEquals("ADMIN", session.tenantChecks.get(0).agentClass());
    assertEquals(cp.model.TokenEstimates.ofText("hello"), session.tenantChecks.get(0).messageTokens());
    session.tenantRoom = new cp.model.TenantRoom("tenant_month", 100.0, 99.999, 0.004, "2026-12-01T00:00:00Z",
        "tenant acme's monthly cap $100.0000 (tenant_month) has $99.9990 spent");
    int roundsBefore = ho1.rounds.size();

    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class, () -> s.turn(new TurnRequest("more")));

    io.temporal.failure.ApplicationFailure af = turnRefused(e);
    cp.model.Refusal refusal = af.getDetails().get(0, cp.model.Refusal.class);
    assertEquals("budget_exhausted", refusal.code());
    assertEquals("tenant_month", refusal.level());
    assertEquals("usd", refusal.currency());
    assertEquals(100.0, refusal.capUsd(), 1e-12);
    assertEquals(99.999, refusal.spentUsd(), 1e-12);
    assertEquals(0.004, refusal.neededUsd(), 1e-12);
    assertEquals("2026-12-01T00:00:00Z", refusal.resets());
    assertTrue(af.getOriginalMessage().contains("tenant acme's monthly cap"), af.getOriginalMessage());
    assertEquals(roundsBefore, ho1.rounds.size(), "nothing ran");
    assertEquals(1, s.state().turns(), "the refused turn used no turn of the limit");
  }

  /**
   * Issues 21/23 (tenant-capped 1): a session whose tenant has no cap on the worker (its profile
   * says so) runs no tenant-admission local activity before its turns: the history holds none,
   * only the profile that said so. Before, every turn asked (one local activity on each turn's
   * critical path) although the answer could never be a refusal.
   */
  @Test
  void aTenantWithNoCap_runsNoTenantAdmissionActivity_beforeItsTurns() {
    session.tenantCapped = false;
    SessionWorkflow s0 = h.sessionStub(SID);
    WorkflowClient.start(s0::run, new SessionInput(SID, "ADMIN", null, 0).withTenant("beta"));
    SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, SID);

    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("hello")).outcome());
    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("again")).outcome());

    assertEquals(List.of("beta"), session.profileTenants, "the profile was loaded for the session's tenant");
    assertEquals(List.of(), session.tenantChecks, "no tenant check was asked");
    List<String> local = localActivityTypes(h.client.fetchHistory(SID));
    assertTrue(local.contains("SessionProfileForTenant"), local.toString());
    assertFalse(local.stream().anyMatch(t -> t.contains("TenantRoom")), local.toString());
    assertEquals(Boolean.FALSE, s.state().profile().tenantCapped());
  }

  /** Issues 21/23: a tenant with a cap is still asked before each turn (tenant-capped 1 changes nothing for it). */
  @Test
  void aCappedTenant_isStillAskedBeforeEachTurn() {
    SessionWorkflow s0 = h.sessionStub(SID);
    WorkflowClient.start(s0::run, new SessionInput(SID, "ADMIN", null, 0).withTenant("acme"));
    SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, SID);

    s.turn(new TurnRequest("hello"));
    s.turn(new TurnRequest("again"));

    assertEquals(2, session.tenantChecks.size());
    assertEquals(2, localActivityTypes(h.client.fetchHistory(SID)).stream().filter(t -> t.contains("TenantRoom"))
        .count());
  }

  /** The types of the local activities a history recorded, in order. */
  static List<String> localActivityTypes(io.temporal.common.WorkflowExecutionHistory history) {
    return history.getEvents().stream().filter(e -> e.hasMarkerRecordedEventAttributes())
        .map(e -> e.getMarkerRecordedEventAttributes())
        .filter(m -> m.getMarkerName().equals("LocalActivity"))
        .map(m -> m.getDetailsMap().get("type").getPayloads(0).getData().toStringUtf8().replace("\"", ""))
        .toList();
  }

  /** Issue 23: a work order whose call its own dollar budget cannot pay for ends the turn naming that budget. */
  @Test
  void aWorkOrderRefusedForItsOwnDollarBudget_endsTheTurnNamingBudgetWorkOrderUsd() {
    session.profile = FakeActivities.profile(100_000, 50).withUsd(0.01, 1.0, 0.001, 1.0);
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Refused("budget_exhausted", cp.model.UsdBudgets.refusal(
        r.usdBudgetLevel(), r.usdBudgetRemaining(), 0.02, "prompt about 900 tokens + max_tokens 1024 at fake-model's"
        + " price"), null, "fake-model");
    SessionWorkflow s = start(0);

    TurnResult r = s.turn(new TurnRequest("write a long essay"));

    assertEquals("budget_exhausted", r.errorCode());
    assertEquals("work_order", ho1.rounds.get(1).usdBudgetLevel(), "$0.01 a work order is tighter than $0.999 left");
    assertTrue(r.response().contains("budget.work_order_usd = $0.0100"), r.response());
    assertFalse(r.response().contains("token budget"), r.response());
  }

  /**
   * Issue 23: a call refused because its model has no price (a tenant's cap, here) ends the turn
   * saying the fix is a price in CP_PRICES_FILE; before, the turn said "Try again after the reset, or
   * have an operator raise the tenant's cap", advice that could not help.
   */
  @Test
  void aWorkOrderRefusedBecauseItsModelHasNoPrice_saysThePriceIsTheFix_notAResetOrACap() {
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Refused("budget_exhausted",
        cp.model.UsdBudgets.unpricedRefusal(cp.model.UsdBudgets.TENANT_DAY, "mystery-1"), null, "mystery-1");
    SessionWorkflow s = start(0);

    TurnResult r = s.turn(new TurnRequest("hello"));

    assertEquals("budget_exhausted", r.errorCode());
    assertTrue(r.response().contains("model 'mystery-1' has no price") && r.response().contains("CP_PRICES_FILE"),
        r.response());
    assertFalse(r.response().contains("after the reset") || r.response().contains("raise the tenant's cap")
        || r.response().contains("Infinity"), r.response());
  }

  /**
   * The workflow reads which budget refused a call from the refusal's typed kind, set by the gateway,
   * not from its words: a tenant cap's refusal worded otherwise still gets the tenant's advice (before,
   * the words decided, and this one was told about the session's token budget).
   */
  @Test
  void aRefusalTypedAsTheTenantsDay_getsTheTenantsAdvice_whateverItsWords() {
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Refused("budget_exhausted",
        "tenant acme's daily cap $1.0000 has $1.0000 spent; it resets at 2026-11-27T00:00:00Z", null, "fake",
        cp.model.RefusalKind.TENANT_DAY);
    SessionWorkflow s = start(0);

    TurnResult r = s.turn(new TurnRequest("hello"));

    assertEquals("budget_exhausted", r.errorCode());
    assertTrue(r.response().contains("Try again after the reset") && r.response().contains("CP_TENANTS_FILE"),
        r.response());
    assertFalse(r.response().contains("token budget"), r.response());
  }

  /** Issue 20: a fallback call the session cannot pay for says so, not "temporarily unavailable". */
  @Test
  void aDegradedCallRefusedForTheBudget_saysTheSessionBudget_notUnavailable() {
    ho1.failGateway = true;
    ho1.refuseDegraded = "budget_exhausted";
    SessionWorkflow s = start(0);

    TurnResult r = s.turn(new TurnRequest("hello"));

    assertEquals(TurnOutcome.ERROR, r.outcome());
    assertEquals("budget_exhausted", r.errorCode());
    assertTrue(r.response().contains("token budget cannot pay for the direct fallback call"), r.response());
    assertFalse(r.response().contains("temporarily unavailable"), r.response());
  }
}
