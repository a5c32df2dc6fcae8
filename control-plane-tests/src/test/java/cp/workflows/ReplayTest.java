package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.model.SessionInput;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import cp.worker.HistoryReplayer;
import cp.worker.PlaneFixture;
import cp.worker.TemporalOptions;
import cp.worker.codec.PayloadKey;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Committed histories must replay against the current workflow code; a changed workflow must
 * not. Run with {@code -Dcp.recordHistories=true} to re-record the current histories (after a
 * deliberate, versioned workflow change), or {@code -Dcp.recordHistories=FILE[,FILE]} for some
 * of them, then commit them.
 *
 * <p>The {@link #CLASSIC} histories were recorded before turn workflows went lean (version
 * {@code lean-turn} 1): the current code records different histories, so they are never
 * re-recorded; they prove that turns and sessions started on the old code still replay.
 */
class ReplayTest {
  static final Path DIR = Path.of("src/test/resources/histories");
  /** A turn recorded with payload encryption on, under {@link #TEST_PAYLOAD_KEY}. */
  static final String ENCRYPTED_FILE = "encrypted-turn.json";
  /** The key of {@link #ENCRYPTED_FILE}: public, for this test only (bytes 0..31). */
  static final PayloadKey TEST_PAYLOAD_KEY = PayloadKey.parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
  /** The user's message in {@link #ENCRYPTED_FILE}; it must not be readable there. */
  static final String ENCRYPTED_MESSAGE = "my locker combination is 31-7-22";
  /** Issue 11 (round2-session 1): two turns, the agent allows two, the session ends by itself. */
  static final String TURN_LIMIT_FILE = "round2-turn-limit-session.json";
  /** Issue 11: turn 1 hangs in synthesize past the 2 s turn deadline; turn 2 answers; end. */
  static final String DEADLINE_FILE = "round2-deadline-session.json";
  /** Issue 11: HO2 fails, the degraded call answers; the turn counts the ledger's tokens and cost. */
  static final String DEGRADED_COSTS_FILE = "round2-degraded-costs-session.json";
  /** Issue 11 (round2-turn 1): the turn of {@link #DEADLINE_FILE} the session cancelled at its deadline. */
  static final String DEADLINE_TURN_FILE = "round2-deadline-turn.json";
  /** Issue 11 (round2-turn 1): a synthesize work order spends its own cap in a tool loop. */
  static final String WO_BUDGET_TURN_FILE = "round2-wo-budget-turn.json";
  /**
   * Issue 12 (contract-defence 1): a session a foreign client started without search attributes
   * (the session sets them itself), one turn, end.
   */
  static final String CONTRACT_FILE = "contract-session.json";
  /** Issue 12 (contract-defence 1): a start without agent_class; the workflow fails at once. */
  static final String REFUSED_START_FILE = "contract-refused-start-session.json";
  /** Recorded by earlier versions of the workflows; frozen. */
  static final List<String> CLASSIC = List.of("plain-turn.json", "tool-loop-turn.json", "gate-retry-turn.json",
      "degraded-session.json", "continued-session.json", "plain-session.json", "unlogged-degradation-session.json",
      ENCRYPTED_FILE, "idle-end-session.json");
  /** A session whose HOT ledger refuses appends after SESSION_START: one turn, then end (ledger-unwritable 1). */
  static final String UNWRITABLE_FILE = "lean-unwritable-ledger-session.json";
  /** A session whose end arrived while SESSION_START was written, and waited for it (start-first 1). */
  static final String START_FIRST_FILE = "start-first-session.json";
  /** Issue 15 (tool-approval 1): a write_file call a person granted through the session's approve Update. */
  static final String APPROVAL_GRANTED_SESSION = "approval-granted-session.json";
  /** Issue 15: the turn of {@link #APPROVAL_GRANTED_SESSION}: requested, waited, granted, ran. */
  static final String APPROVAL_GRANTED_TURN = "approval-granted-turn.json";
  /** Issue 15: a write_file call a person denied; the model read the denial. */
  static final String APPROVAL_DENIED_TURN = "approval-denied-turn.json";
  /** Issue 15: a write_file call nobody decided within its 2 s approval timeout: timed out, denied. */
  static final String APPROVAL_TIMED_OUT_TURN = "approval-timed-out-turn.json";
  /**
   * Issue 15's approvals as they ran before {@code approval-by-query} 1 (the turn took the decision
   * from the session's signal): frozen, the current code records them otherwise.
   */
  static final List<String> SIGNALLED_APPROVALS = List.of(APPROVAL_GRANTED_SESSION, APPROVAL_GRANTED_TURN,
      APPROVAL_DENIED_TURN, APPROVAL_TIMED_OUT_TURN);
  /**
   * Issue 20 (approval-by-query 1): a write_file call granted through the session's approve Update
   * after a plain client forged approval_decided to the turn and approval_pending/approval_closed to
   * the session (the session and its turn: every signal only woke the other, which asked by Query).
   */
  static final String QUERIED_APPROVAL_SESSION = "approval-by-query-session.json";
  static final String QUERIED_APPROVAL_TURN = "approval-by-query-turn.json";
  /** Issue 20: nobody decided within the 2 s approval timeout, a forged decision notwithstanding. */
  static final String QUERIED_APPROVAL_TIMED_OUT_TURN = "approval-by-query-timed-out-turn.json";
  /**
   * Lean turns as they ran before {@code plan-in-round} 1 (each work order's plan a local activity):
   * frozen, the current code records them as {@link #PLAN_IN_ROUND_TURNS}.
   */
  static final List<String> BEFORE_PLAN_IN_ROUND = List.of("lean-plain-turn.json", "lean-tool-loop-turn.json",
      "lean-gate-retry-turn.json");
  /** Issue 21 (plan-in-round 1): the same three turns, each work order's plan written by its first round. */
  static final List<String> PLAN_IN_ROUND_TURNS = List.of("plan-in-round-plain-turn.json",
      "plan-in-round-tool-loop-turn.json", "plan-in-round-gate-retry-turn.json");
  /**
   * Issue 23 (tenant 1, dollar-budgets 1): a session of tenant acme whose agent has dollar caps: one
   * turn (its work orders reserve against them), a turn refused up front for the session's dollars
   * (an Update refusal: not in the history), end.
   */
  static final String DOLLAR_SESSION_FILE = "dollar-budget-session.json";
  /** Issue 23 (dollar-budgets 1): a turn whose synthesize call its work order's own dollar budget refused. */
  static final String DOLLAR_TURN_FILE = "dollar-budget-turn.json";
  /**
   * Issue 23 (degraded-tenant 1): a session of tenant acme whose turns fail: turn 1's degraded call
   * (carrying the tenant) answers, turn 2's is refused for the tenant's daily cap; end.
   */
  static final String DEGRADED_TENANT_FILE = "degraded-tenant-session.json";
  /**
   * degraded-session-usd 1: a session whose agent has a session dollar budget and whose turns fail:
   * turn 1's degraded call carries what the budget has left and answers; turn 2's failed supervisor
   * spends the rest, so no degraded call is made; end.
   */
  static final String DEGRADED_SESSION_USD_FILE = "degraded-session-usd-session.json";
  /**
   * Issue 23 (tenant-admission 1): a session of tenant acme: turn 1 admitted (its tenant could pay),
   * turn 2 refused up front for the tenant's monthly cap (a failed Update), end.
   */
  static final String TENANT_ADMISSION_FILE = "tenant-admission-session.json";
  /**
   * Issues 21/23 (tenant-capped 1): a session of tenant beta, whose profile says it has no cap: two
   * turns and no tenant-admission local activity before either, end.
   */
  static final String TENANT_UNCAPPED_FILE = "tenant-capped-uncapped-session.json";
  /**
   * Issues 21/23 (tenant-capped 1): a session of tenant acme, whose profile says it has a cap: turn 1
   * asked and admitted, turn 2 refused up front for the tenant's monthly cap, end.
   */
  static final String TENANT_CAPPED_FILE = "tenant-capped-capped-session.json";
  /** Issue 21 follow-up (turn-of-session 1): a plain turn run as its session's child, which it checks before anything. */
  static final String TURN_OF_SESSION_FILE = "turn-of-session-plain-turn.json";
  /** Recorded by the current workflows (lean turns); re-recorded on request. */
  static final List<String> CURRENT = List.of(PLAN_IN_ROUND_TURNS.get(0), PLAN_IN_ROUND_TURNS.get(1),
      PLAN_IN_ROUND_TURNS.get(2), "lean-plain-session.json", "lean-idle-end-retry-session.json",
      UNWRITABLE_FILE, START_FIRST_FILE, TURN_LIMIT_FILE, DEADLINE_FILE, DEGRADED_COSTS_FILE, DEADLINE_TURN_FILE, WO_BUDGET_TURN_FILE,
      CONTRACT_FILE, REFUSED_START_FILE, QUERIED_APPROVAL_SESSION, QUERIED_APPROVAL_TURN,
      QUERIED_APPROVAL_TIMED_OUT_TURN, DOLLAR_SESSION_FILE, DOLLAR_TURN_FILE, DEGRADED_TENANT_FILE,
      TENANT_ADMISSION_FILE, TENANT_UNCAPPED_FILE, TENANT_CAPPED_FILE, TURN_OF_SESSION_FILE, DEGRADED_SESSION_USD_FILE);
  static final List<String> FILES = java.util.stream.Stream.of(CLASSIC, SIGNALLED_APPROVALS, BEFORE_PLAN_IN_ROUND,
      CURRENT)
      .flatMap(List::stream).toList();

  private static Set<String> toRecord = Set.of();

  @BeforeAll
  static void recordIfAsked() throws Exception {
    String which = System.getProperty("cp.recordHistories", "false").trim();
    if (which.equals("true")) {
      toRecord = Set.copyOf(CURRENT);
    } else if (!which.equals("false") && !which.isEmpty()) {
      toRecord = Set.of(which.split("\\s*,\\s*"));
      for (String f : toRecord) {
        if (!CURRENT.contains(f)) {
          throw new IllegalArgumentException(f + " is not a history the current code records (current: " + CURRENT
              + "; the classic ones are frozen)");
        }
      }
    }
    if (!toRecord.isEmpty()) {
      record();
    }
  }

  /** Every committed history but the encrypted one, which needs its key (see the test below). */
  static List<String> plainHistories() {
    return FILES.stream().filter(f -> !f.equals(ENCRYPTED_FILE)).toList();
  }

  @ParameterizedTest
  @MethodSource("plainHistories")
  void committedHistory_replaysAgainstTheCurrentCode(String file) throws IOException {
    String json = Files.readString(DIR.resolve(file), StandardCharsets.UTF_8);
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replayJson(json);
      assertTrue(o.ok(), file + ": " + o.problem());
    }
  }

  @Test
  void encryptedHistory_replaysWithItsKey_andNamesTheKeyWithoutIt() throws IOException {
    String json = Files.readString(DIR.resolve(ENCRYPTED_FILE), StandardCharsets.UTF_8);
    WorkflowExecutionHistory history = WorkflowExecutionHistory.fromJson(json);
    assertFalse(PlaneFixture.mentions(history, ENCRYPTED_MESSAGE), "the committed history is not encrypted");
    assertTrue(PlaneFixture.mentions(history, "binary/encrypted"));

    try (HistoryReplayer replayer = new HistoryReplayer(TemporalOptions.dataConverter(Optional.of(TEST_PAYLOAD_KEY)))) {
      HistoryReplayer.Outcome o = replayer.replay(history);
      assertTrue(o.ok(), ENCRYPTED_FILE + ": " + o.problem());
    }
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replay(history);
      assertFalse(o.ok());
      assertTrue(o.problem().contains("key id " + TEST_PAYLOAD_KEY.id() + ") but CP_PAYLOAD_KEY is not set"),
          o.problem());
    }
  }

  @Test
  void everyScenarioHasACommittedHistory() {
    for (String f : FILES) {
      assertTrue(Files.isRegularFile(DIR.resolve(f)), "missing " + f + "; record with -Dcp.recordHistories=true");
    }
  }

  @Test
  void currentHistories_areLeanTurns_withoutLocalActivityArgumentsInTheirMarkers() throws IOException {
    for (String f : java.util.stream.Stream.of(BEFORE_PLAN_IN_ROUND, PLAN_IN_ROUND_TURNS).flatMap(List::stream)
        .toList()) {
      WorkflowExecutionHistory h = WorkflowExecutionHistory.fromJson(Files.readString(DIR.resolve(f),
          StandardCharsets.UTF_8));
      assertTrue(PlaneFixture.mentions(h, TurnWorkflowImpl.LEAN_TURN), f + " has no lean-turn version marker");
      List<String> localActivities = h.getEvents().stream().filter(e -> e.hasMarkerRecordedEventAttributes())
          .map(e -> e.getMarkerRecordedEventAttributes())
          .filter(m -> m.getMarkerName().equals("LocalActivity"))
          .peek(m -> assertFalse(m.getDetailsMap().containsKey("input"), f + ": a marker records its input"))
          .map(m -> m.getDetailsMap().get("type").getPayloads(0).getData().toStringUtf8())
          .toList();
      assertFalse(localActivities.contains("\"Ho1Prepare\"") || localActivities.contains("\"Ho1Finish\""),
          f + ": " + localActivities);
    }
  }

  @Test
  void turnOfSessionHistory_hasTheMarker_andRanAsItsSessionsChild() throws IOException {
    WorkflowExecutionHistory h = history(TURN_OF_SESSION_FILE);
    assertTrue(PlaneFixture.mentions(h, TurnOrigin.TURN_OF_SESSION), "no turn-of-session marker");
    var started = h.getEvents().get(0).getWorkflowExecutionStartedEventAttributes();
    assertEquals("SES-0000abcd", started.getParentWorkflowExecution().getWorkflowId(), "run as its session's child");
    for (String older : PLAN_IN_ROUND_TURNS) {
      assertFalse(PlaneFixture.mentions(history(older), TurnOrigin.TURN_OF_SESSION), older + ": recorded before it");
    }
  }

  @Test
  void planInRoundHistories_haveTheMarker_andWriteEachPlanInTheFirstRoundInsteadOfALocalActivity()
      throws IOException {
    for (int i = 0; i < PLAN_IN_ROUND_TURNS.size(); i++) {
      WorkflowExecutionHistory now = history(PLAN_IN_ROUND_TURNS.get(i));
      WorkflowExecutionHistory before = history(BEFORE_PLAN_IN_ROUND.get(i));
      String f = PLAN_IN_ROUND_TURNS.get(i);
      assertTrue(PlaneFixture.mentions(now, TurnWorkflowImpl.PLAN_IN_ROUND), f + ": no plan-in-round marker");
      assertFalse(PlaneFixture.mentions(before, TurnWorkflowImpl.PLAN_IN_ROUND), "recorded before the change");
      long workOrders = roundRequests(now).stream().filter(r -> r.contains("\"dispatched\"")).count();
      assertTrue(workOrders >= 2, f);
      assertEquals(workOrders, roundRequests(now).stream().filter(r -> r.contains("\"record_plan\":true")).count(),
          f + ": every first round writes its work order's plan");
      assertEquals(localActivities(before).size() - workOrders, localActivities(now).size(),
          f + ": one local activity fewer per work order");
      assertTrue(roundRequests(before).stream().noneMatch(r -> r.contains("record_plan")), f);
    }
  }

  private static List<String> roundRequests(WorkflowExecutionHistory h) {
    return h.getEvents().stream().filter(e -> e.hasActivityTaskScheduledEventAttributes())
        .map(e -> e.getActivityTaskScheduledEventAttributes())
        .filter(a -> a.getActivityType().getName().equals("Ho1LlmRound"))
        .map(a -> a.getInput().getPayloads(0).getData().toStringUtf8()).toList();
  }

  @Test
  void idleEndRetryHistory_hasTheVersionMarker_andWaitedBeforeWritingSessionEndAgain() throws IOException {
    WorkflowExecutionHistory h = WorkflowExecutionHistory.fromJson(Files.readString(
        DIR.resolve("lean-idle-end-retry-session.json"), StandardCharsets.UTF_8));
    assertTrue(PlaneFixture.mentions(h, SessionVersions.SESSION_END_RETRY), "no session-end-retry marker");
    WorkflowExecutionHistory old = WorkflowExecutionHistory.fromJson(Files.readString(
        DIR.resolve("idle-end-session.json"), StandardCharsets.UTF_8));
    assertEquals(timers(old) + 1, timers(h),
        "the same session but for one wait between the failed SESSION_END and the one that was written");
    assertFalse(PlaneFixture.mentions(old, SessionVersions.SESSION_END_RETRY), "recorded before the change");
  }

  @Test
  void unwritableLedgerHistory_hasTheVersionMarker_andEndedWithoutSessionEnd() throws IOException {
    WorkflowExecutionHistory h = WorkflowExecutionHistory.fromJson(Files.readString(DIR.resolve(UNWRITABLE_FILE),
        StandardCharsets.UTF_8));
    assertTrue(PlaneFixture.mentions(h, SessionVersions.LEDGER_UNWRITABLE), "no ledger-unwritable marker");
    assertTrue(PlaneFixture.mentions(h, "SESSION_END could not be written"), "end reported the missing SESSION_END");
    assertTrue(h.getEvents().stream().anyMatch(e -> e.hasWorkflowExecutionCompletedEventAttributes()),
        "the session completed");
  }

  @Test
  void round2Histories_haveTheVersionMarker_andShowWhatChanged() throws IOException {
    WorkflowExecutionHistory limit = history(TURN_LIMIT_FILE);
    WorkflowExecutionHistory deadline = history(DEADLINE_FILE);
    WorkflowExecutionHistory degraded = history(DEGRADED_COSTS_FILE);
    for (WorkflowExecutionHistory h : List.of(limit, deadline, degraded)) {
      assertTrue(PlaneFixture.mentions(h, SessionVersions.ROUND2_SESSION), "no round2-session marker");
    }
    assertEquals(2, count(limit, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED),
        "two turns and no end Update: the turn limit ended the session");
    assertTrue(PlaneFixture.mentions(limit, SessionWorkflowImpl.TURN_LIMIT));
    assertEquals(1, count(deadline, io.temporal.api.enums.v1.EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED),
        "the turn past its deadline was cancelled");
    assertTrue(PlaneFixture.mentions(deadline, SessionWorkflowImpl.TURN_DEADLINE_EXCEEDED));
    assertEquals(List.of("\"SessionProfile\"", "\"SessionRecord\"", "\"SessionTurnCost\"", "\"SessionRecord\""),
        localActivities(deadline), "SESSION_START, the cancelled turn's cost, SESSION_END: no DEGRADATION");
    assertFalse(PlaneFixture.mentions(history("lean-plain-session.json"), SessionVersions.ROUND2_SESSION),
        "recorded before the change");
    WorkflowExecutionHistory cancelledTurn = history(DEADLINE_TURN_FILE);
    assertTrue(PlaneFixture.mentions(cancelledTurn, TurnWorkflowImpl.ROUND2_TURN), "no round2-turn marker");
    long cancelAt = cancelledTurn.getEvents().stream().filter(e -> e.getEventType()
        == io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED)
        .mapToLong(e -> e.getEventId()).findFirst().orElseThrow();
    assertTrue(cancelledTurn.getEvents().stream().filter(e -> e.getEventId() > cancelAt)
        .filter(e -> e.hasMarkerRecordedEventAttributes()).map(e -> e.getMarkerRecordedEventAttributes())
        .anyMatch(m -> m.getMarkerName().equals("LocalActivity")
            && m.getDetailsMap().get("type").getPayloads(0).getData().toStringUtf8().equals("\"Ho2Record\"")),
        "the cancelled turn closed its chain (WO_CHAIN_COMPLETE) after the cancel request");
    assertTrue(PlaneFixture.mentions(history(WO_BUDGET_TURN_FILE), "budget.wo_token_budget"));
  }

  @Test
  void startFirstHistory_hasTheVersionMarker_andEndsAfterItsStart() throws IOException {
    WorkflowExecutionHistory h = history(START_FIRST_FILE);
    assertTrue(PlaneFixture.mentions(h, SessionVersions.START_FIRST), "no start-first marker");
    List<String> las = localActivities(h);
    assertEquals("\"SessionRecord\"", las.get(las.size() - 1), "SESSION_END written last");
    assertFalse(PlaneFixture.mentions(history("lean-plain-session.json"), SessionVersions.START_FIRST),
        "recorded before the change");
  }

  @Test
  void contractHistories_haveTheVersionMarker_setTheirOwnSearchAttributes_andRefuseABadStartAtOnce()
      throws IOException {
    WorkflowExecutionHistory h = history(CONTRACT_FILE);
    assertTrue(PlaneFixture.mentions(h, SessionVersions.CONTRACT_DEFENCE), "no contract-defence marker");
    assertTrue(count(h, io.temporal.api.enums.v1.EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES) >= 2,
        "the session set its search attributes at start and CpTurn after its turn");
    assertTrue(h.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getSearchAttributes()
        .getIndexedFieldsCount() == 0, "recorded from a start without search attributes");
    WorkflowExecutionHistory refused = history(REFUSED_START_FILE);
    assertTrue(PlaneFixture.mentions(refused, SessionVersions.CONTRACT_DEFENCE), "no contract-defence marker");
    assertEquals(1, count(refused, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED));
    assertEquals(0, count(refused, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED),
        "failed at once, not by failing its first task");
    assertEquals(List.of(), localActivities(refused), "nothing ran for a refused start");
    assertTrue(PlaneFixture.mentions(refused, "agent_class is missing"));
    assertFalse(PlaneFixture.mentions(history("lean-plain-session.json"), SessionVersions.CONTRACT_DEFENCE),
        "recorded before the change");
  }

  /** Issue 23: the new histories carry their markers; those recorded before do not. */
  @Test
  void dollarHistories_haveTheirVersionMarkers_andTheTenant() throws IOException {
    WorkflowExecutionHistory session = history(DOLLAR_SESSION_FILE);
    assertTrue(PlaneFixture.mentions(session, SessionVersions.TENANT), "no tenant marker");
    assertTrue(PlaneFixture.mentions(session, SessionVersions.DOLLAR_BUDGETS), "no dollar-budgets marker");
    assertTrue(PlaneFixture.mentions(session, "CpTenant"), "the session set CpTenant");
    assertTrue(PlaneFixture.mentions(session, "session_usd_spent"), "the turn was handed the session's dollars");
    WorkflowExecutionHistory turn = history(DOLLAR_TURN_FILE);
    assertTrue(PlaneFixture.mentions(turn, TurnWorkflowImpl.DOLLAR_BUDGETS), "no dollar-budgets marker in the turn");
    assertTrue(PlaneFixture.mentions(turn, "budget.work_order_usd"), "the turn named the work order's dollar budget");
    assertFalse(PlaneFixture.mentions(history("lean-plain-session.json"), SessionVersions.DOLLAR_BUDGETS),
        "recorded before the change");
  }

  /**
   * Issue 23 (degraded-tenant 1): the degraded calls carry the session's tenant and a tenant cap's
   * refusal is told as such; a degraded session recorded before has no marker and still replays.
   */
  @Test
  void degradedTenantHistory_hasItsMarker_theTenantOnTheDegradedCall_andTheTenantsRefusal() throws IOException {
    WorkflowExecutionHistory session = history(DEGRADED_TENANT_FILE);
    assertTrue(PlaneFixture.mentions(session, SessionVersions.DEGRADED_TENANT), "no degraded-tenant marker");
    List<String> degraded = session.getEvents().stream().filter(e -> e.hasActivityTaskScheduledEventAttributes())
        .map(e -> e.getActivityTaskScheduledEventAttributes())
        .filter(a -> a.getActivityType().getName().equals("Ho1DegradedCall"))
        .map(a -> a.getInput().getPayloads(0).getData().toStringUtf8()).toList();
    assertEquals(2, degraded.size(), "one degraded call per turn: " + degraded);
    degraded.forEach(in -> assertTrue(in.contains("\"tenant\":\"acme\""), in));
    assertTrue(PlaneFixture.mentions(session, "the direct fallback call was not sent: USD budget (tenant_day)"),
        "turn 2 named the tenant's daily cap");
    assertFalse(PlaneFixture.mentions(history(DEGRADED_COSTS_FILE), SessionVersions.DEGRADED_TENANT),
        "recorded before the change");
  }

  /** Issue 23 (tenant-admission 1): the session asked its tenant's room before each turn; older sessions did not. */
  @Test
  void tenantAdmissionHistory_asksTheTenantsRoomBeforeEachTurn() throws IOException {
    assertAskedBeforeEachTurn(history(TENANT_ADMISSION_FILE), SessionVersions.TENANT_ADMISSION);
    assertFalse(PlaneFixture.mentions(history(DOLLAR_SESSION_FILE), SessionVersions.TENANT_ADMISSION),
        "recorded before the change");
  }

  /**
   * Issues 21/23 (tenant-capped 1): a session whose tenant has no cap loaded its profile for the
   * tenant and asked nothing before its two turns; a capped one still asked before each; the
   * sessions recorded before have no marker and still replay (they ask before every turn).
   */
  @Test
  void tenantCappedHistories_anUncappedTenantIsNeverAsked_aCappedOneIsAskedBeforeEachTurn() throws IOException {
    WorkflowExecutionHistory uncapped = history(TENANT_UNCAPPED_FILE);
    assertTrue(PlaneFixture.mentions(uncapped, SessionVersions.TENANT_CAPPED), "no tenant-capped marker");
    List<String> local = localActivities(uncapped);
    assertEquals(1, local.stream().filter(t -> t.contains("SessionProfileForTenant")).count(), local.toString());
    assertEquals(0, local.stream().filter(t -> t.contains("TenantRoom")).count(), local.toString());
    assertEquals(2, uncapped.getEvents().stream().filter(e -> e.hasChildWorkflowExecutionCompletedEventAttributes())
        .count(), "both turns ran");
    assertAskedBeforeEachTurn(history(TENANT_CAPPED_FILE), SessionVersions.TENANT_CAPPED);
    assertFalse(PlaneFixture.mentions(history(TENANT_ADMISSION_FILE), SessionVersions.TENANT_CAPPED),
        "recorded before the change");
  }

  /** Two turns, each after a tenant check, the second refused for the tenant's month; {@code marker} recorded. */
  private static void assertAskedBeforeEachTurn(WorkflowExecutionHistory session, String marker) {
    assertTrue(PlaneFixture.mentions(session, marker), "no " + marker + " marker");
    assertEquals(2, localActivities(session).stream().filter(t -> t.contains("TenantRoom")).count(),
        "one tenant check per turn: " + localActivities(session));
    assertTrue(PlaneFixture.mentions(session, "tenant_month"), "turn 2 was refused naming the tenant's month");
  }

  private static List<String> localActivities(WorkflowExecutionHistory h) {
    return h.getEvents().stream().filter(e -> e.hasMarkerRecordedEventAttributes())
        .map(e -> e.getMarkerRecordedEventAttributes())
        .filter(m -> m.getMarkerName().equals("LocalActivity"))
        .map(m -> m.getDetailsMap().get("type").getPayloads(0).getData().toStringUtf8())
        .toList();
  }

  /** The (remote) activities a history scheduled, by type. */
  private static List<String> activities(WorkflowExecutionHistory h) {
    return h.getEvents().stream().filter(e -> e.hasActivityTaskScheduledEventAttributes())
        .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName()).toList();
  }

  private static WorkflowExecutionHistory history(String file) throws IOException {
    return WorkflowExecutionHistory.fromJson(Files.readString(DIR.resolve(file), StandardCharsets.UTF_8));
  }

  private static long count(WorkflowExecutionHistory h, io.temporal.api.enums.v1.EventType type) {
    return h.getEvents().stream().filter(e -> e.getEventType() == type).count();
  }

  private static long timers(WorkflowExecutionHistory h) {
    return h.getEvents().stream().filter(e -> e.hasTimerStartedEventAttributes())
        .filter(e -> e.getTimerStartedEventAttributes().getStartToFireTimeout().getSeconds()
            == SessionEnding.RETRY_INTERVAL.getSeconds())
        .count();
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain-turn.json", "lean-plain-turn.json", QUERIED_APPROVAL_TURN,
      "plan-in-round-plain-turn.json"})
  void changedTurnWorkflow_failsReplayWithANonDeterminismError(String file) throws Exception {
    String json = Files.readString(DIR.resolve(file), StandardCharsets.UTF_8);
    try (HistoryReplayer changed = new HistoryReplayer(ChangedTurnWorkflowImpl.class)) {
      HistoryReplayer.Outcome o = changed.replayJson(json);
      assertFalse(o.ok());
      assertTrue(o.problem().contains("NonDeterministicException") || o.problem().contains("TMPRL1100"), o.problem());
    }
  }

  @Test
  void approvalHistories_haveTheVersionMarker_andShowEachDecision() throws IOException {
    for (String f : List.of(APPROVAL_GRANTED_TURN, APPROVAL_DENIED_TURN, APPROVAL_TIMED_OUT_TURN)) {
      WorkflowExecutionHistory h = history(f);
      assertTrue(PlaneFixture.mentions(h, ApprovalGate.TOOL_APPROVAL), f + ": no tool-approval marker");
      assertEquals(List.of("\"ApprovalRequest\"", "\"ApprovalDecided\""), localActivities(h).stream()
          .filter(a -> a.startsWith("\"Approval")).toList(), f);
      assertEquals(2, count(h, io.temporal.api.enums.v1.EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED),
          f + ": the session was told of the wait and of the decision");
    }
    WorkflowExecutionHistory granted = history(APPROVAL_GRANTED_TURN);
    assertEquals(1, count(granted, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED));
    assertTrue(PlaneFixture.mentions(granted, "\"granted\""));
    assertTrue(PlaneFixture.mentions(history(APPROVAL_DENIED_TURN), "\"denied\""));
    WorkflowExecutionHistory timedOut = history(APPROVAL_TIMED_OUT_TURN);
    assertEquals(0, count(timedOut, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
        "nobody decided");
    assertEquals(1, count(timedOut, io.temporal.api.enums.v1.EventType.EVENT_TYPE_TIMER_FIRED), "the approval timer fired");
    assertTrue(PlaneFixture.mentions(timedOut, "\"timed_out\""));
    WorkflowExecutionHistory session = history(APPROVAL_GRANTED_SESSION);
    assertTrue(PlaneFixture.mentions(session, SessionWorkflow.APPROVE));
    assertEquals(2, count(session, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
        "approval_pending and approval_closed from the turn");
    assertEquals(3, count(session, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED),
        "turn, approve, end");
    assertFalse(PlaneFixture.mentions(history("lean-tool-loop-turn.json"), ApprovalGate.TOOL_APPROVAL),
        "a tool that needs no approval leaves no marker");
  }

  @Test
  void queriedApprovalHistories_haveTheMarker_askTheOtherSide_andRanOnlyWhatTheUpdateDecided() throws IOException {
    WorkflowExecutionHistory session = history(QUERIED_APPROVAL_SESSION);
    WorkflowExecutionHistory turn = history(QUERIED_APPROVAL_TURN);
    WorkflowExecutionHistory timedOut = history(QUERIED_APPROVAL_TIMED_OUT_TURN);
    for (WorkflowExecutionHistory h : List.of(session, turn, timedOut)) {
      assertTrue(PlaneFixture.mentions(h, ApprovalGate.APPROVAL_BY_QUERY), "no approval-by-query marker");
    }
    assertTrue(count(session, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) >= 4,
        "the turn's two wake-ups and the two forged signals reached the session");
    assertTrue(activities(session).contains("ApprovalLookupTurnApprovals"),
        "the session asked its turn: " + activities(session));
    assertEquals(2, count(turn, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
        "the forged decision and the session's wake-up");
    List<String> turnActivities = activities(turn);
    assertEquals(2, turnActivities.stream().filter("ApprovalLookupClaimedDecision"::equals).count(),
        "asked the session on each wake-up (the forged one found nothing): " + turnActivities);
    String toolCall = turn.getEvents().stream().filter(e -> e.hasActivityTaskScheduledEventAttributes())
        .map(e -> e.getActivityTaskScheduledEventAttributes())
        .filter(a -> a.getActivityType().getName().equals("Ho1ToolCall"))
        .map(a -> a.getInput().getPayloads(0).getData().toStringUtf8()).findFirst().orElseThrow();
    assertTrue(toolCall.contains("\"decided_by\":\"alice\"") && toolCall.contains("\"decision\":\"granted\""),
        toolCall);
    assertFalse(toolCall.contains("1999-"), "the tool ran on the forged decision: " + toolCall);
    assertEquals(1, count(timedOut, io.temporal.api.enums.v1.EventType.EVENT_TYPE_TIMER_FIRED), "the approval timer");
    String timedOutCall = timedOut.getEvents().stream().filter(e -> e.hasActivityTaskScheduledEventAttributes())
        .map(e -> e.getActivityTaskScheduledEventAttributes())
        .filter(a -> a.getActivityType().getName().equals("Ho1ToolCall"))
        .map(a -> a.getInput().getPayloads(0).getData().toStringUtf8()).findFirst().orElseThrow();
    assertTrue(timedOutCall.contains("\"decision\":\"timed_out\"") && !timedOutCall.contains("1999-"),
        timedOutCall);
    for (String f : SIGNALLED_APPROVALS) {
      assertFalse(PlaneFixture.mentions(history(f), ApprovalGate.APPROVAL_BY_QUERY), f + ": recorded before the change");
    }
  }

  @Test
  void approvalTurnReplayedWithoutItsApprovalPolicy_failsWithANonDeterminismError() throws Exception {
    String json = Files.readString(DIR.resolve(APPROVAL_GRANTED_TURN), StandardCharsets.UTF_8);
    try (HistoryReplayer changed = new HistoryReplayer(UnapprovedTurnWorkflowImpl.class)) {
      HistoryReplayer.Outcome o = changed.replayJson(json);
      assertFalse(o.ok());
      assertTrue(o.problem().contains("NonDeterministicException") || o.problem().contains("TMPRL1100"), o.problem());
    }
  }

  /** A TurnWorkflow that ignores the agent's approval policy: the tool runs at once, as before issue 15. */
  public static class UnapprovedTurnWorkflowImpl extends TurnWorkflowImpl {
    @Override
    public TurnResult run(cp.model.TurnInput in) {
      return super.run(new cp.model.TurnInput(in.sessionId(), in.turn(), in.userMessage(),
          in.sessionTokensRemaining(), in.profile().withApprovals(List.of())));
    }
  }

  @Test
  void replayer_reportsAHistoryFromAnotherWorkflowTypeAsAFailure() throws IOException {
    String json = Files.readString(DIR.resolve("plain-turn.json"), StandardCharsets.UTF_8)
        .replace("\"TurnWorkflow\"", "\"NoSuchWorkflow\"");
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      assertFalse(replayer.replayJson(json).ok());
    }
  }

  /** A TurnWorkflow whose first step moved: attention before classify. */
  public static class ChangedTurnWorkflowImpl extends TurnWorkflowImpl {
    private final cp.activities.Ho2Activities ho2 = io.temporal.workflow.Workflow.newLocalActivityStub(
        cp.activities.Ho2Activities.class);

    @Override
    public TurnResult run(cp.model.TurnInput in) {
      ho2.attend(new cp.model.AttentionRequest(in.sessionId(), in.profile().agentClass(),
          in.profile().attentionTemplateId(), in.turn(), in.userMessage()));
      return super.run(in);
    }
  }

  // ------------------------------------------------------------------ recording

  static void record() throws Exception {
    Files.createDirectories(DIR);
    recordTurn(PLAN_IN_ROUND_TURNS.get(0), ho1 -> { }, "hello");
    recordTurn(PLAN_IN_ROUND_TURNS.get(1), ho1 -> {
      AtomicInteger n = new AtomicInteger();
      ho1.synthesize = r -> n.incrementAndGet() == 1
          ? ho1.toolUse("list_packages", Json.object())
          : ho1.text("{\"response_text\":\"3 packages\"}");
    }, "what packages are installed?");
    recordTurn(PLAN_IN_ROUND_TURNS.get(2), ho1 -> {
      AtomicInteger n = new AtomicInteger();
      ho1.synthesize = r -> n.incrementAndGet() == 1
          ? ho1.text("{\"response_text\":\"  \"}")
          : ho1.text("{\"response_text\":\"a real answer\"}");
    }, "question?");
    recordTurn(TURN_OF_SESSION_FILE, ho1 -> { }, "hello");
    recordSession("lean-plain-session.json", "SES-00001235", 0, ho1 -> { }, 2);
    recordIdleSession("lean-idle-end-retry-session.json", "SES-00001237", IDLE_END_FAILED_WRITES);
    recordUnwritableSession(UNWRITABLE_FILE, "SES-00001238");
    recordSession(START_FIRST_FILE, "SES-0000123c", 0, ho1 -> { }, session -> session.sessionStartMillis = 300, 0);
    recordTurn(WO_BUDGET_TURN_FILE, ho1 -> ho1.synthesize = r -> ho1.toolUse("list_packages", Json.object()),
        "what packages are installed?", new cp.model.AgentProfile("ADMIN", "admin-001", "FMWK-005", "ATT-ADMIN-001",
            List.of("list_packages"), 200_000, 50, 7200, 1800, 150, 5, 120, 1000, 2, 200));
    recordContractSessions(CONTRACT_FILE, REFUSED_START_FILE, "SES-0000123b");
    recordDollarSession(DOLLAR_SESSION_FILE, "SES-0000126a");
    recordDollarTurn(DOLLAR_TURN_FILE);
    recordDegradedTenantSession(DEGRADED_TENANT_FILE, "SES-0000127a");
    recordDegradedSessionUsd(DEGRADED_SESSION_USD_FILE, "SES-0000129a");
    recordTenantAdmissionSession(TENANT_ADMISSION_FILE, "SES-0000127b");
    recordUncappedTenantSession(TENANT_UNCAPPED_FILE, "SES-0000128a");
    recordTenantAdmissionSession(TENANT_CAPPED_FILE, "SES-0000128b");
    recordApproval(QUERIED_APPROVAL_SESSION, QUERIED_APPROVAL_TURN, "SES-0000125a", "grant", 600);
    recordApproval(null, QUERIED_APPROVAL_TIMED_OUT_TURN, "SES-0000125c", null, 2);
    recordRound2Session(TURN_LIMIT_FILE, "SES-00001238", ho1 -> { },
        session -> session.profile = FakeActivities.profile(100_000, 2), 2, false);
    recordRound2Session(DEADLINE_FILE, "SES-00001239", ho1 -> ho1.hangSynthesize = new java.util.concurrent.CountDownLatch(1),
        session -> session.profile = FakeActivities.profile(100_000, 50).withTurnTimeoutSeconds(2), 2, true);
    recordRound2Session(DEGRADED_COSTS_FILE, "SES-0000123a", ho1 -> {
      ho1.failGateway = true;
      ho1.degradedCost = 0.000756;
    }, session -> session.spendDetail.put("SES-0000123a/turn-0001", new cp.model.WoCost(60, 10, 0, 1, 0, 0.0005)), 1,
        true);
  }

  /** SESSION_START, then the HOT ledger refuses every append: one turn (refused, honest), then end. */
  private static void recordUnwritableSession(String file, String sid) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    FakeActivities.Session session = new FakeActivities.Session();
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0));
      SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      stub.state();
      ho1.hotUnwritable = SessionWorkflowTest.HOT_BROKEN;
      session.hotUnwritable = SessionWorkflowTest.HOT_BROKEN;
      stub.turn(new TurnRequest("turn 1"));
      stub.end();
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /**
   * A session of {@code turns} turns; with {@code end} the user ends it, else it must end by
   * itself (its turn limit). A hanging synthesize ({@code ho1.hangSynthesize}) hangs only turn 1.
   */
  private static void recordRound2Session(String file, String sid,
      java.util.function.Consumer<FakeActivities.Ho1> script,
      java.util.function.Consumer<FakeActivities.Session> sessionScript, int turns, boolean end) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    FakeActivities.Session session = new FakeActivities.Session();
    sessionScript.accept(session);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0));
      for (int i = 1; i <= turns; i++) {
        h.client.newWorkflowStub(SessionWorkflow.class, sid).turn(new TurnRequest("turn " + i));
        ho1.hangSynthesize = null;
      }
      if (end) {
        h.client.newWorkflowStub(SessionWorkflow.class, sid).end();
      }
      io.temporal.client.WorkflowStub.fromTyped(h.client.newWorkflowStub(SessionWorkflow.class, sid))
          .getResult(cp.model.SessionSummary.class);
      write(file, h.client.fetchHistory(sid, first.getRunId()));
      if (file.equals(DEADLINE_FILE)) {
        write(DEADLINE_TURN_FILE, h.client.fetchHistory(WorkOrderIds.turnWorkflow(sid, 1)));
      }
    }
  }

  /**
   * SESSION_END writes that fail in the recorded idle session: more than one local activity's
   * attempts, so the session must wait and write again.
   */
  static final int IDLE_END_FAILED_WRITES = 7;

  /** A profile whose sessions end after 60 s without a turn. */
  static cp.model.AgentProfile idleProfile() {
    return new cp.model.AgentProfile("ADMIN", "a", "f", "ATT-ADMIN-001", List.of(), 100_000, 50, 7200, 60, 4000, 3,
        120, 1000, 2, 200);
  }

  /**
   * One turn, then the idle timeout ends the session; the first {@code failedEndWrites} attempts
   * to write SESSION_END fail.
   */
  private static void recordIdleSession(String file, String sid, int failedEndWrites) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Session session = new FakeActivities.Session();
    session.profile = idleProfile();
    session.failSessionEndWrites.set(failedEndWrites);
    try (WorkflowHarness h = new WorkflowHarness(new FakeActivities.Ho1(), new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0));
      h.client.newWorkflowStub(SessionWorkflow.class, sid).turn(new TurnRequest("turn 1"));
      h.env.sleep(java.time.Duration.ofSeconds(61));
      io.temporal.client.WorkflowStub.fromTyped(h.client.newWorkflowStub(SessionWorkflow.class, sid))
          .getResult(cp.model.SessionSummary.class);
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  private static void recordTurn(String file, java.util.function.Consumer<FakeActivities.Ho1> script, String text) {
    recordTurn(file, script, text, Optional.empty());
  }

  /** See {@link #DOLLAR_SESSION_FILE}. */
  private static void recordDollarSession(String file, String sid) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Answered(new cp.model.LlmRoundResult.Exchange("LED-usd", 900,
        100, 0.047, "fake-model", false, "stop"), "{\"response_text\":\"noted\"}");
    FakeActivities.Session session = new FakeActivities.Session();
    session.profile = FakeActivities.profile(100_000, 50).withUsd(0.03, 0.05, 0.004, 1.0);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0).withTenant("acme"));
      SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      stub.turn(new TurnRequest("turn 1"));
      org.junit.jupiter.api.Assertions.assertThrows(io.temporal.client.WorkflowUpdateException.class,
          () -> stub.turn(new TurnRequest("turn 2")));
      stub.end();
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /** See {@link #DEGRADED_TENANT_FILE}. */
  private static void recordDegradedTenantSession(String file, String sid) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    ho1.failGateway = true;
    FakeActivities.Session session = new FakeActivities.Session();
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0).withTenant("acme"));
      SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      stub.turn(new TurnRequest("turn 1"));
      ho1.refuseDegraded = "budget_exhausted";
      ho1.refuseDegradedMessage = cp.model.UsdBudgets.refusal(cp.model.UsdBudgets.TENANT_DAY, 0, 0.01,
          "tenant acme's daily cap $1.0000 has $1.0000 spent and $0.0000 held by calls in flight; it resets at"
              + " 2026-11-27T00:00:00Z");
      stub.turn(new TurnRequest("turn 2"));
      stub.end();
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /** See {@link #DEGRADED_SESSION_USD_FILE}. */
  private static void recordDegradedSessionUsd(String file, String sid) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    ho1.failGateway = true;
    ho1.degradedCost = 0.01;
    FakeActivities.Session session = new FakeActivities.Session();
    session.profile = FakeActivities.profile(100_000, 50).withUsd(0.03, 0.05, 0.004, 1.0);
    session.spendDetail.put(sid + "/turn-0001", new cp.model.WoCost(60, 10, 70, 1, 0, 0.02));
    session.spendDetail.put(sid + "/turn-0002", new cp.model.WoCost(60, 10, 70, 1, 0, 0.02));
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0).withTenant("acme"));
      SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      assertEquals(cp.model.TurnOutcome.DEGRADED, stub.turn(new TurnRequest("turn 1")).outcome());
      assertEquals("budget_exhausted", stub.turn(new TurnRequest("turn 2")).errorCode());
      assertEquals(1, ho1.degraded.size());
      stub.end();
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /** See {@link #TENANT_ADMISSION_FILE}. */
  private static void recordTenantAdmissionSession(String file, String sid) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Session session = new FakeActivities.Session();
    try (WorkflowHarness h = new WorkflowHarness(new FakeActivities.Ho1(), new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0).withTenant("acme"));
      SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      stub.turn(new TurnRequest("turn 1"));
      session.tenantRoom = new cp.model.TenantRoom("tenant_month", 100.0, 99.999, 0.004, "2026-12-01T00:00:00Z",
          "tenant acme's monthly cap $100.0000 (tenant_month) has $99.9990 spent");
      org.junit.jupiter.api.Assertions.assertThrows(io.temporal.client.WorkflowUpdateException.class,
          () -> stub.turn(new TurnRequest("turn 2")));
      stub.end();
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /** See {@link #TENANT_UNCAPPED_FILE}. */
  private static void recordUncappedTenantSession(String file, String sid) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Session session = new FakeActivities.Session();
    session.tenantCapped = false;
    try (WorkflowHarness h = new WorkflowHarness(new FakeActivities.Ho1(), new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, 0).withTenant("beta"));
      SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      stub.turn(new TurnRequest("turn 1"));
      stub.turn(new TurnRequest("turn 2"));
      stub.end();
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /** See {@link #DOLLAR_TURN_FILE}. */
  private static void recordDollarTurn(String file) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    ho1.synthesize = r -> new cp.model.LlmRoundResult.Refused("budget_exhausted", cp.model.UsdBudgets.refusal(
        r.usdBudgetLevel(), r.usdBudgetRemaining(), 0.02, "prompt about 900 tokens + max_tokens 1024"), null,
        "fake-model");
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), new FakeActivities.Session())) {
      String id = "SES-0000abcf/turn-0001";
      h.runTurn(id, new cp.model.TurnInput("SES-0000abcf", 1, "a long essay", 100_000,
          FakeActivities.profile(100_000, 50).withUsd(0.01, 1.0, 0.001, 1.0), 0.0));
      write(file, h.client.fetchHistory(id));
    }
  }

  private static void recordTurn(String file, java.util.function.Consumer<FakeActivities.Ho1> script, String text,
      cp.model.AgentProfile profile) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), new FakeActivities.Session())) {
      String id = "SES-0000abce/turn-0001";
      h.runTurn(id, new cp.model.TurnInput("SES-0000abce", 1, text, profile.sessionTokenLimit(), profile));
      write(file, h.client.fetchHistory(id));
    }
  }

  private static void recordTurn(String file, java.util.function.Consumer<FakeActivities.Ho1> script, String text,
      Optional<PayloadKey> key) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), new FakeActivities.Session(), 600,
        true, key)) {
      String id = "SES-0000abcd/turn-0001";
      h.runTurn(id, new cp.model.TurnInput("SES-0000abcd", 1, text, 100_000, FakeActivities.profile(100_000, 50)));
      write(file, h.client.fetchHistory(id));
    }
  }

  private static void recordSession(String file, String sid, int canAfter,
      java.util.function.Consumer<FakeActivities.Ho1> script, int turns) {
    recordSession(file, sid, canAfter, script, session -> { }, turns);
  }

  private static void recordSession(String file, String sid, int canAfter,
      java.util.function.Consumer<FakeActivities.Ho1> script,
      java.util.function.Consumer<FakeActivities.Session> sessionScript, int turns) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    FakeActivities.Session session = new FakeActivities.Session();
    sessionScript.accept(session);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, canAfter));
      for (int i = 1; i <= turns; i++) {
        h.client.newWorkflowStub(SessionWorkflow.class, sid).turn(new TurnRequest("turn " + i));
      }
      if (canAfter == 0) {
        h.client.newWorkflowStub(SessionWorkflow.class, sid).end();
      }
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  /**
   * Recorded through an untyped stub with raw JSON-shaped payloads and no search attributes, as a
   * foreign client (the TypeScript SDK, say) starts a session.
   */
  private static void recordContractSessions(String file, String refusedFile, String sid) {
    if (!toRecord.contains(file) && !toRecord.contains(refusedFile)) {
      return;
    }
    try (WorkflowHarness h = new WorkflowHarness(new FakeActivities.Ho1(), new FakeActivities.Ho2(),
        new FakeActivities.Session())) {
      io.temporal.client.WorkflowStub stub = h.client.newUntypedWorkflowStub("SessionWorkflow",
          io.temporal.client.WorkflowOptions.newBuilder().setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(sid)
              .build());
      var first = stub.start(java.util.Map.of("session_id", sid, "agent_class", "ADMIN"));
      stub.update("turn", TurnResult.class, java.util.Map.of("text", "turn 1"));
      try {
        stub.update("turn", TurnResult.class, java.util.Map.of("message", "refused by name"));
      } catch (io.temporal.client.WorkflowUpdateException expected) {
        // Refused by the validator: not in the history.
      }
      stub.update("end", cp.model.SessionSummary.class);
      stub.getResult(cp.model.SessionSummary.class);
      write(file, h.client.fetchHistory(sid, first.getRunId()));

      String refusedId = "SES-0000123c";
      io.temporal.client.WorkflowStub bad = h.client.newUntypedWorkflowStub("SessionWorkflow",
          io.temporal.client.WorkflowOptions.newBuilder().setTaskQueue(WorkflowHarness.QUEUE)
              .setWorkflowId(refusedId).build());
      var badRun = bad.start(java.util.Map.of("session_id", refusedId));
      try {
        bad.getResult(cp.model.SessionSummary.class);
      } catch (io.temporal.client.WorkflowFailedException expected) {
        // start_refused
      }
      write(refusedFile, h.client.fetchHistory(refusedId, badRun.getRunId()));
    }
  }

  /**
   * Issue 15: one turn whose model asks for write_file under an approval policy; {@code decision}
   * grant or deny is sent as the session's approve Update once the call waits, null lets it time out.
   */
  private static void recordApproval(String sessionFile, String turnFile, String sid, String decision,
      long timeoutSeconds) throws Exception {
    if (!toRecord.contains(turnFile) && (sessionFile == null || !toRecord.contains(sessionFile))) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    AtomicInteger n = new AtomicInteger();
    ho1.synthesize = r -> n.incrementAndGet() == 1
        ? ho1.toolUse("write_file", Json.parse("{\"path\":\"HO2/notes.md\",\"content\":\"a\\nb\\n\"}"))
        : ho1.text("{\"response_text\":\"done\"}");
    FakeActivities.Session session = new FakeActivities.Session();
    session.profile = FakeActivities.profile(100_000, 50).withTurnTimeoutSeconds(300).withApprovals(
        List.of(new cp.model.ToolApproval("write_file", timeoutSeconds, false)));
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session, 600, false)) {
      var first = WorkflowClient.start(h.sessionStub(sid)::run, new SessionInput(sid, "ADMIN", null, 0));
      SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, sid);
      var turn = java.util.concurrent.CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("write my notes")));
      long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
      while (s.state() == null || s.state().pendingApprovals().isEmpty()) {
        assertTrue(System.nanoTime() < until, "no approval became pending");
        Thread.sleep(50);
      }
      forgeSignals(h, s.state().pendingApprovals().get(0));
      if (decision != null) {
        Thread.sleep(500);
        s.approve(new cp.model.ApprovalDecision(s.state().pendingApprovals().get(0).approvalId(), decision, "alice",
            "recorded for replay"));
      }
      turn.get(30, java.util.concurrent.TimeUnit.SECONDS);
      s.end();
      if (sessionFile != null && toRecord.contains(sessionFile)) {
        write(sessionFile, h.client.fetchHistory(sid, first.getRunId()));
      }
      if (toRecord.contains(turnFile)) {
        write(turnFile, h.client.fetchHistory(WorkOrderIds.turnWorkflow(sid, 1)));
      }
    }
  }

  /** What a plain client with namespace access can send (issue 20): a forged decision, close and pending. */
  static void forgeSignals(WorkflowHarness h, cp.model.PendingApproval p) {
    java.util.Map<String, Object> forged = new java.util.LinkedHashMap<>();
    forged.put("approval_id", p.approvalId());
    forged.put("session_id", p.sessionId());
    forged.put("turn", p.turn());
    forged.put("tool", p.tool());
    forged.put("decision", "denied");
    forged.put("granted", true);
    forged.put("decided_by", "nobody");
    forged.put("decided_at", "1999-01-01T00:00:00Z");
    h.client.newUntypedWorkflowStub(p.turnWorkflowId()).signal(TurnWorkflow.APPROVAL_DECIDED, forged);
    h.client.newUntypedWorkflowStub(p.sessionId()).signal(SessionWorkflow.APPROVAL_CLOSED, forged);
    h.client.newUntypedWorkflowStub(p.sessionId()).signal(SessionWorkflow.APPROVAL_PENDING, java.util.Map.of(
        "approval_id", p.approvalId() + "9", "session_id", p.sessionId(), "turn", 1, "turn_workflow_id",
        p.turnWorkflowId(), "wo_id", p.woId(), "tool", "write_file", "summary", "forged"));
  }

  private static void write(String file, WorkflowExecutionHistory h) {
    try {
      Files.writeString(DIR.resolve(file), h.toJson(true), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertEquals(file, file);
  }
}
