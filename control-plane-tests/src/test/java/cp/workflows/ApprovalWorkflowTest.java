package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.Json;
import cp.model.PendingApproval;
import cp.model.Refusal;
import cp.model.SessionInput;
import cp.model.ToolCallRequest;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15 on the test service: a tool call the agent's policy marks waits durably for a person;
 * the session's {@code approve} Update decides it (validated: unknown, already decided), the turn
 * records the decision and the tool call learns it; a call nobody decides times out, denied.
 */
class ApprovalWorkflowTest {
  static final String SID = "SES-0a0b0c0d";
  FakeActivities.Ho1 ho1;
  FakeActivities.Session session;
  WorkflowHarness h;

  @BeforeEach
  void setUp() {
    ho1 = new FakeActivities.Ho1();
    session = new FakeActivities.Session();
    h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session, 600, false);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  /** ADMIN with write_file under approval; the model asks for one write, then answers. */
  private SessionWorkflow startWithWriteTool(long timeoutSeconds) {
    return startWithWriteTool(timeoutSeconds, 300);
  }

  private SessionWorkflow startWithWriteTool(long timeoutSeconds, long turnDeadlineSeconds) {
    session.profile = ApprovalScenario.writeToolProfile(timeoutSeconds, turnDeadlineSeconds, List.of());
    ApprovalScenario.writesOnceThenAnswers(ho1);
    WorkflowClient.start(h.sessionStub(SID)::run, new SessionInput(SID, "ADMIN", null, 0));
    return h.client.newWorkflowStub(SessionWorkflow.class, SID);
  }

  private static CompletableFuture<TurnResult> turnAsync(SessionWorkflow s) {
    return CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("write my notes")));
  }

  private static PendingApproval awaitPending(SessionWorkflow s) throws InterruptedException {
    return ApprovalScenario.awaitPending(s);
  }


  private static ApplicationFailure refusal(Runnable r) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class, r::run);
    Throwable t = e;
    while (t != null && !(t instanceof ApplicationFailure)) {
      t = t.getCause();
    }
    assertTrue(t instanceof ApplicationFailure, String.valueOf(e));
    return (ApplicationFailure) t;
  }

  private static String code(ApplicationFailure f) {
    return f.getDetails().get(0, Refusal.class).code();
  }

  @Test
  void granted_theCallWaitsUntilDecided_runsWithTheGrant_andASecondDecisionIsRefusedNamingTheFirst()
      throws Exception {
    SessionWorkflow s = startWithWriteTool(600);
    CompletableFuture<TurnResult> turn = turnAsync(s);

    PendingApproval p = awaitPending(s);
    assertEquals("write_file", p.tool());
    assertEquals(SID + "/turn-0001", p.turnWorkflowId());
    assertTrue(p.approvalId().startsWith("APR-0a0b0c0d-0001-"), p.approvalId());
    Thread.sleep(300);
    assertFalse(turn.isDone(), "the turn waits for the decision");
    assertTrue(ho1.tools.isEmpty(), "the tool did not run before the decision");
    String progress = h.client.newWorkflowStub(TurnWorkflow.class, p.turnWorkflowId()).progress();
    assertTrue(progress.contains("waiting for approval " + p.approvalId()), progress);

    ApprovalResult r = s.approve(new ApprovalDecision(p.approvalId(), "grant", "alice", "looks fine"));

    assertEquals(ApprovalResult.GRANTED, r.decision());
    assertTrue(r.granted());
    assertEquals("alice", r.decidedBy());
    assertTrue(r.message().contains("granted by alice"), r.message());
    TurnResult t = turn.get(20, TimeUnit.SECONDS);
    assertEquals(TurnOutcome.SUCCESS, t.outcome());
    assertEquals(1, ho1.tools.size(), "the tool ran once");
    ToolCallRequest call = ho1.tools.get(0);
    assertEquals(ApprovalResult.GRANTED, call.approval().decision());
    assertEquals(1, h.approvals.requests.size());
    assertEquals(List.of(ApprovalResult.GRANTED), h.approvals.decisions.stream().map(ApprovalResult::decision).toList());
    assertTrue(s.state().pendingApprovals().isEmpty());

    ApplicationFailure again = refusal(() -> s.approve(new ApprovalDecision(p.approvalId(), "deny", "bob", null)));
    assertEquals(Refusal.APPROVAL_REFUSED, again.getType());
    assertEquals("already_decided", code(again));
    assertTrue(again.getOriginalMessage().contains("granted by alice"), again.getOriginalMessage());
  }

  @Test
  void denied_theToolCallCarriesTheDenial_andTheTurnGoesOn() throws Exception {
    SessionWorkflow s = startWithWriteTool(600);
    CompletableFuture<TurnResult> turn = turnAsync(s);
    PendingApproval p = awaitPending(s);

    ApprovalResult r = s.approve(new ApprovalDecision(p.approvalId(), "deny", "carol", "not today"));

    assertEquals(ApprovalResult.DENIED, r.decision());
    assertFalse(r.granted());
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
    ToolCallRequest call = ho1.tools.get(0);
    assertEquals(ApprovalResult.DENIED, call.approval().decision());
    assertEquals("not today", call.approval().reason());
    assertEquals(2, ho1.synthesizeRounds(), "the model had another round, with the denial as the tool's result");
  }

  @Test
  void nobodyDecides_theCallTimesOutDenied_andALateDecisionIsRefused() throws Exception {
    SessionWorkflow s = startWithWriteTool(2);
    long t0 = System.nanoTime();
    TurnResult t = s.turn(new TurnRequest("write my notes"));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertEquals(TurnOutcome.SUCCESS, t.outcome());
    assertTrue(ms >= 2_000, "waited the approval timeout: " + ms + " ms");
    ApprovalResult d = h.approvals.decisions.get(0);
    assertEquals(ApprovalResult.TIMED_OUT, d.decision());
    assertFalse(d.granted());
    assertEquals(ApprovalResult.SYSTEM, d.decidedBy());
    assertEquals(ApprovalResult.TIMED_OUT, ho1.tools.get(0).approval().decision());
    ApplicationFailure late = refusal(() -> s.approve(new ApprovalDecision(d.approvalId(), "grant", "dave", null)));
    assertEquals("already_decided", code(late));
    assertTrue(late.getOriginalMessage().contains("timed_out"), late.getOriginalMessage());
  }

  @Test
  void unknownApproval_orAMalformedDecision_isRefusedWithAClearMessage() throws Exception {
    SessionWorkflow s = startWithWriteTool(600);
    CompletableFuture<TurnResult> turn = turnAsync(s);
    PendingApproval p = awaitPending(s);

    ApplicationFailure unknown = refusal(() -> s.approve(new ApprovalDecision("APR-nope", "grant", "eve", null)));
    assertEquals("unknown_approval", code(unknown));
    assertTrue(unknown.getOriginalMessage().contains("pending: " + p.approvalId()), unknown.getOriginalMessage());
    assertEquals("invalid_decision",
        code(refusal(() -> s.approve(new ApprovalDecision(p.approvalId(), "maybe", "eve", null)))));
    assertEquals("missing_field", code(refusal(() -> s.approve(new ApprovalDecision(p.approvalId(), "grant", " ",
        null)))));
    io.temporal.client.WorkflowStub untyped = io.temporal.client.WorkflowStub.fromTyped(s);
    ApplicationFailure shape = refusal(() -> untyped.update(SessionWorkflow.APPROVE, ApprovalResult.class,
        java.util.Map.of("id", p.approvalId())));
    assertEquals("unknown_field", code(shape));
    assertTrue(shape.getOriginalMessage().contains("got field 'id'"), shape.getOriginalMessage());

    assertEquals(1, s.state().pendingApprovals().size(), "refusals changed nothing");
    s.approve(new ApprovalDecision(p.approvalId(), "grant", "eve", null));
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
  }

  @Test
  void twoPeopleDecidingAtOnce_theFirstWins_andTheOtherIsToldWhoDecided() throws Exception {
    SessionWorkflow s = startWithWriteTool(600);
    CompletableFuture<TurnResult> turn = turnAsync(s);
    PendingApproval p = awaitPending(s);

    CompletableFuture<Object> alice = CompletableFuture.supplyAsync(() -> decideOrRefusal(s, p, "grant", "alice"));
    CompletableFuture<Object> bob = CompletableFuture.supplyAsync(() -> decideOrRefusal(s, p, "deny", "bob"));
    List<Object> both = List.of(alice.get(20, TimeUnit.SECONDS), bob.get(20, TimeUnit.SECONDS));

    List<ApprovalResult> won = both.stream().filter(ApprovalResult.class::isInstance).map(ApprovalResult.class::cast)
        .toList();
    List<ApplicationFailure> lost = both.stream().filter(ApplicationFailure.class::isInstance)
        .map(ApplicationFailure.class::cast).toList();
    assertEquals(1, won.size(), both.toString());
    assertEquals(1, lost.size(), both.toString());
    assertEquals("already_decided", code(lost.get(0)));
    assertTrue(lost.get(0).getOriginalMessage().contains(won.get(0).decision() + " by " + won.get(0).decidedBy()),
        lost.get(0).getOriginalMessage());
    assertEquals(List.of(won.get(0).decision()), h.approvals.decisions.stream().map(ApprovalResult::decision).toList(),
        "one decision recorded: the first");
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
  }

  private static Object decideOrRefusal(SessionWorkflow s, PendingApproval p, String decision, String by) {
    try {
      return s.approve(new ApprovalDecision(p.approvalId(), decision, by, null));
    } catch (WorkflowUpdateException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof ApplicationFailure af) {
          return af;
        }
      }
      throw e;
    }
  }

  @Test
  void theSameUpdateIdTwice_isOneDecision_answeredTheSameBothTimes() throws Exception {
    SessionWorkflow s = startWithWriteTool(600);
    CompletableFuture<TurnResult> turn = turnAsync(s);
    PendingApproval p = awaitPending(s);
    io.temporal.client.WorkflowStub untyped = io.temporal.client.WorkflowStub.fromTyped(s);
    ApprovalDecision grant = new ApprovalDecision(p.approvalId(), "grant", "alice", null);
    java.util.function.Supplier<ApprovalResult> send = () -> untyped.startUpdate(
        io.temporal.client.UpdateOptions.newBuilder(ApprovalResult.class).setUpdateName(SessionWorkflow.APPROVE)
            .setUpdateId("approve-once").setWaitForStage(io.temporal.client.WorkflowUpdateStage.COMPLETED).build(),
        grant).getResult();

    ApprovalResult first = send.get();
    ApprovalResult again = send.get();

    assertEquals(first, again, "a retried Update (same id) is answered with the first result, not refused");
    assertEquals(1, h.approvals.decisions.size(), "one decision recorded");
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
  }

  @Test
  void theTurnDeadlinePassingFirst_cancelsTheTurn_andRecordsTheApprovalAsTimedOutSayingWhy() throws Exception {
    SessionWorkflow s = startWithWriteTool(600, 2);

    TurnResult t = s.turn(new TurnRequest("write my notes"));

    assertEquals(SessionWorkflowImpl.TURN_DEADLINE_EXCEEDED, t.errorCode());
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (h.approvals.decisions.isEmpty() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    ApprovalResult d = h.approvals.decisions.get(0);
    assertEquals(ApprovalResult.TIMED_OUT, d.decision());
    assertTrue(d.reason().contains("budget.turn_timeout_seconds = 2"), d.reason());
    assertTrue(ho1.tools.isEmpty(), "the tool never ran");
    assertTrue(s.state().pendingApprovals().isEmpty(), "nothing left pending once the turn ended");
    ApplicationFailure late = refusal(() -> s.approve(new ApprovalDecision(d.approvalId(), "grant", "zed", null)));
    assertEquals("already_decided", code(late));
  }

  @Test
  void aToolWithoutApprovalPolicy_runsWithoutWaitingOrRecordingAnApproval() {
    AtomicInteger round = new AtomicInteger();
    ho1.synthesize = r -> round.incrementAndGet() == 1
        ? ho1.toolUse("read_file", Json.parse("{\"path\":\"README.md\"}"))
        : ho1.text("{\"response_text\":\"done\"}");
    WorkflowClient.start(h.sessionStub(SID)::run, new SessionInput(SID, "ADMIN", null, 0));
    SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, SID);

    assertEquals(TurnOutcome.SUCCESS, s.turn(new TurnRequest("read")).outcome());
    assertNull(ho1.tools.get(0).approval());
    assertTrue(h.approvals.requests.isEmpty());
  }

}
