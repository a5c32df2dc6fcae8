package cp.activities;

import static cp.activities.ScriptedProvider.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.ControlPlaneClient;
import cp.gateway.ForwardingProvider;
import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.model.Ho2Event;
import cp.model.Ho2PlanEvents;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WoState;
import cp.model.WorkOrder;
import cp.model.WorkOrderIds;
import cp.workflows.WorkOrderRunner.Outcome;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the workflow cache at 0 every workflow task replays the whole history, so a workflow
 * that scheduled a model call differently on replay would schedule it twice or fail with a
 * non-determinism error. After a tool-loop turn the history must hold exactly one
 * ActivityTaskScheduled of type Ho1LlmRound per provider call and per EXCHANGE record, and no
 * failed workflow task.
 */
class LlmCallPerActivityTest {
  static final String LLM_ROUND = "Ho1LlmRound";
  static Ho1Harness h;

  @TempDir Path home;
  final ToolLog tools = new ToolLog();

  @BeforeAll
  static void startService() {
    h = Ho1Harness.start(Ho1Harness.FAST_RETRIES, 0);
  }

  @AfterAll
  static void stopService() {
    h.close();
  }

  @AfterEach
  void closePlane() {
    h.closePlane();
  }

  /** Passes every request to {@code delegate} and keeps it. */
  static final class Recording extends ForwardingProvider {
    final List<PromptRequest> requests = Collections.synchronizedList(new ArrayList<>());

    Recording(LlmProvider delegate) {
      super(delegate);
    }

    @Override
    public ProviderReply send(PromptRequest request) throws ProviderException {
      requests.add(request);
      return super.send(request);
    }
  }

  @Test
  void toolLoopTurnOnTheRealWorkflows_schedulesOneActivityPerModelCall() {
    Recording provider = new Recording(new OfflineProvider());
    h.plane(home, provider, tools);
    ControlPlaneClient cp = new ControlPlaneClient(h.client, Ho1Harness.QUEUE,
        h.runtime().catalog().agentClasses(), Ho1Harness.FAST_RETRIES.continueAsNewAfterTurns());
    String session = cp.startSession("ADMIN");

    TurnResult turn = cp.turn(session, "what packages are installed?");
    cp.end(session);

    assertEquals(TurnOutcome.SUCCESS, turn.outcome(), turn.response());
    assertEquals(List.of("list_packages"), tools.toolIds());
    assertEquals(3, provider.requests.size(), "classify, synthesize asking for the tool, synthesize answering");
    String turnWorkflow = WorkOrderIds.turnWorkflow(session, 1);
    List<HistoryEvent> history = h.history(turnWorkflow);
    List<String> scheduled = Ho1Harness.scheduledActivityIds(history, LLM_ROUND);
    assertEquals(provider.requests.size(), scheduled.size());
    List<LedgerEntry> exchanges = h.successfulExchanges().stream()
        .filter(e -> turnWorkflow.equals(e.metaText("workflow_id"))).toList();
    assertEquals(scheduled, exchanges.stream().map(e -> e.metaText("activity_id")).toList());
    assertEquals(turn.exchangeEntryIds(), exchanges.stream().map(LedgerEntry::entryId).toList());
    assertEquals(List.of(), Ho1Harness.scheduledActivityIds(h.history(session), LLM_ROUND),
        "the session itself made no model call");
    assertNoFailedWorkflowTask(history);
    assertNoFailedWorkflowTask(h.history(session));
  }

  @Test
  void threeRoundWorkOrder_schedulesThreeRoundTrips() {
    ScriptedProvider provider = new ScriptedProvider()
        .thenTools(800, 30, use("toolu_01", "list_packages", "{}"))
        .thenTools(900, 30, use("toolu_02", "gate_check", "{}"))
        .thenText("{\"response_text\":\"done\"}", 1000, 40);
    h.plane(home, provider, tools);

    Outcome out = h.run(WorkOrders.synthesize("packages and gates?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    List<HistoryEvent> history = h.history(h.lastWorkflowId());
    assertEquals(3, provider.requests.size());
    assertEquals(3, Ho1Harness.scheduledActivityIds(history, LLM_ROUND).size());
    assertEquals(2, Ho1Harness.scheduledActivityIds(history, "Ho1ToolCall").size());
    assertEquals(3, h.successfulExchanges().size());
    assertNoFailedWorkflowTask(history);
  }

  /**
   * Issue 21 ({@code plan-in-round} 1): a work order's WO_PLANNED and WO_DISPATCHED are written by
   * its first LLM round, before it prepares the work order (WO_EXECUTING), instead of by a local
   * activity before the round is scheduled. With every workflow task replayed from the start and
   * the first round's completion lost once (the round runs twice): each entry written once, in the
   * order a reader expects, with the content the turn's event log writes.
   */
  @Test
  void firstRoundWritesThePlan_once_beforeTheWorkOrderExecutes_andNoLocalActivityWritesIt() {
    LostCompletions[] ho1 = new LostCompletions[1];
    h.plane(home, new OfflineProvider(), tools, real -> ho1[0] = new LostCompletions(real, 1, 0, false));
    ControlPlaneClient cp = new ControlPlaneClient(h.client, Ho1Harness.QUEUE,
        h.runtime().catalog().agentClasses(), Ho1Harness.FAST_RETRIES.continueAsNewAfterTurns());
    String session = cp.startSession("ADMIN");

    TurnResult turn = cp.turn(session, "hello");
    cp.end(session);

    assertEquals(TurnOutcome.SUCCESS, turn.outcome(), turn.response());
    assertTrue(ho1[0].llmAttempts.stream().anyMatch(a -> a.attempt() == 2), "the first round ran twice");
    var ho2 = h.runtime().ledgers().ho2("ADMIN");
    List<LedgerEntry> ho2Entries = ho2.query(LedgerQuery.session(session));
    List<LedgerEntry> executing = h.ho1("WO_EXECUTING");
    for (int seq = 1; seq <= 2; seq++) {
      String woId = WorkOrderIds.workOrder(session, 1, seq);
      List<LedgerEntry> plan = ho2Entries.stream().filter(e -> woId.equals(e.workOrderId()))
          .filter(e -> e.eventType().equals("WO_PLANNED") || e.eventType().equals("WO_DISPATCHED")).toList();
      assertEquals(List.of("WO_PLANNED", "WO_DISPATCHED"), plan.stream().map(LedgerEntry::eventType).toList(), woId);
      WorkOrder planned = Json.convert(plan.get(0).meta("work_order"), WorkOrder.class);
      assertEquals(WoState.PLANNED, planned.state());
      List<Ho2Event> expected = Ho2PlanEvents.of(planned, 1);
      for (int i = 0; i < 2; i++) {
        assertEquals(Json.write(expected.get(i).metadata()), Json.write(plan.get(i).metadata()), woId + " " + expected.get(i).eventType());
        assertEquals(expected.get(i).reason(), plan.get(i).reason());
      }
      LedgerEntry exec = executing.stream().filter(e -> woId.equals(e.workOrderId())).findFirst().orElseThrow();
      assertTrue(plan.get(1).timestamp().compareTo(exec.timestamp()) <= 0, woId + ": dispatched before executing");
    }
    List<HistoryEvent> history = h.history(WorkOrderIds.turnWorkflow(session, 1));
    List<String> localActivities = history.stream().filter(HistoryEvent::hasMarkerRecordedEventAttributes)
        .map(HistoryEvent::getMarkerRecordedEventAttributes).filter(m -> m.getMarkerName().equals("LocalActivity"))
        .map(m -> m.getDetailsMap().get("type").getPayloads(0).getData().toStringUtf8()).toList();
    assertEquals(List.of("\"Ho2Attend\"", "\"Ho2Record\""), localActivities,
        "attention and the gate's step are local; no work order's plan is");
    List<String> firstRounds = history.stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .map(HistoryEvent::getActivityTaskScheduledEventAttributes)
        .filter(a -> a.getActivityType().getName().equals("Ho1LlmRound"))
        .map(a -> a.getInput().getPayloads(0).getData().toStringUtf8()).toList();
    assertEquals(2, firstRounds.size());
    assertTrue(firstRounds.stream().allMatch(r -> r.contains("\"record_plan\":true")), firstRounds.toString());
  }

  private static void assertNoFailedWorkflowTask(List<HistoryEvent> history) {
    assertTrue(history.stream().noneMatch(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED),
        "a workflow task failed on replay (non-determinism?)");
    assertTrue(history.stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED).count() > 1,
        "the run took several workflow tasks, each replayed from the start");
  }
}
