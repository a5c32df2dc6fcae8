package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.SessionInput;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 §1 "Approvals can be forged with a raw Signal", from a plain Temporal client: the
 * signal names {@code approval_decided} (to the turn) and {@code approval_closed} (to the session)
 * are public, so any client with access to the namespace can send them. Neither may decide,
 * hide or record an approval: decisions enter only through the session's validated
 * {@code approve} Update, and what is recorded is exactly what was decided there.
 */
class ForgedApprovalTest {
  static final String SID = "SES-0f0f0f0f";
  FakeActivities.Ho1 ho1;
  FakeActivities.Session session;
  WorkflowHarness h;

  @BeforeEach
  void setUp() {
    ho1 = new FakeActivities.Ho1();
    session = new FakeActivities.Session();
    h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session, 600, false);
    session.profile = ApprovalScenario.writeToolProfile(600, 300, List.of());
    ApprovalScenario.writesOnceThenAnswers(ho1);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private SessionWorkflow start() {
    WorkflowClient.start(h.sessionStub(SID)::run, new SessionInput(SID, "ADMIN", null, 0));
    return h.client.newWorkflowStub(SessionWorkflow.class, SID);
  }

  private static PendingApproval awaitPending(SessionWorkflow s) throws InterruptedException {
    return ApprovalScenario.awaitPending(s);
  }


  /** The decision of the review: "denied", yet granted=true, by "nobody", in 1999. */
  private static Map<String, Object> forgedDecision(PendingApproval p) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("approval_id", p.approvalId());
    d.put("session_id", SID);
    d.put("turn", 1);
    d.put("tool", "write_file");
    d.put("decision", "denied");
    d.put("granted", true);
    d.put("decided_by", "nobody");
    d.put("decided_at", "1999-01-01T00:00:00Z");
    return d;
  }

  @Test
  void aForgedApprovalDecidedSignal_toTheTurn_runsNothingAndRecordsNothing() throws Exception {
    SessionWorkflow s = start();
    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("notes")));
    PendingApproval p = awaitPending(s);

    WorkflowStub raw = h.client.newUntypedWorkflowStub(p.turnWorkflowId());
    raw.signal(TurnWorkflow.APPROVAL_DECIDED, forgedDecision(p));
    Thread.sleep(1_500);

    assertTrue(ho1.tools.isEmpty(), "the forged signal ran the tool: " + ho1.tools);
    assertTrue(h.approvals.decisions.isEmpty(), "the forged signal was recorded: " + h.approvals.decisions);
    assertFalse(turn.isDone(), "the turn still waits for a real decision");
    assertEquals(List.of(p.approvalId()), s.state().pendingApprovals().stream().map(PendingApproval::approvalId)
        .toList(), "still pending, and decidable");

    ApprovalResult r = s.approve(new ApprovalDecision(p.approvalId(), "deny", "carol", "not today"));

    assertEquals(ApprovalResult.DENIED, r.decision());
    assertFalse(r.granted());
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
    assertEquals(1, ho1.tools.size());
    assertEquals(ApprovalResult.DENIED, ho1.tools.get(0).approval().decision(), "the tool learnt the real decision");
    assertFalse(ho1.tools.get(0).approval().granted());
    ApprovalResult recorded = h.approvals.decisions.get(0);
    assertEquals(1, h.approvals.decisions.size());
    assertEquals(List.of(ApprovalResult.DENIED, false, "carol", "not today"),
        List.of(recorded.decision(), recorded.granted(), recorded.decidedBy(), recorded.reason()),
        "the ledger records exactly what was decided");
  }

  @Test
  void aForgedApprovalClosedSignal_toTheSession_hidesNothing() throws Exception {
    SessionWorkflow s = start();
    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("notes")));
    PendingApproval p = awaitPending(s);

    Map<String, Object> forged = forgedDecision(p);
    forged.put("decided_by", "forged");
    forged.remove("decided_at");
    h.client.newUntypedWorkflowStub(SID).signal(SessionWorkflow.APPROVAL_CLOSED, forged);
    // A forged "pending" for an approval nobody asked for must not show up either.
    Map<String, Object> fake = new LinkedHashMap<>(Map.of("approval_id", p.approvalId().replace("-1-1", "-9-9"),
        "session_id", SID, "turn", 1, "turn_workflow_id", p.turnWorkflowId(), "wo_id", p.woId(), "tool", "write_file",
        "tool_use_id", "x", "summary", "HO2/harmless.md (1 bytes)"));
    h.client.newUntypedWorkflowStub(SID).signal(SessionWorkflow.APPROVAL_PENDING, fake);
    Thread.sleep(1_500);

    assertEquals(List.of(p.approvalId()), s.state().pendingApprovals().stream().map(PendingApproval::approvalId)
        .toList(), "the real approval is still listed, the forged one is not");
    ApprovalResult r = s.approve(new ApprovalDecision(p.approvalId(), "grant", "alice", null));
    assertEquals(ApprovalResult.GRANTED, r.decision(), r.toString());
    assertEquals("alice", r.decidedBy());
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
    assertEquals(ApprovalResult.GRANTED, ho1.tools.get(0).approval().decision());
  }

  @Test
  void forgedSignalsToTheTurnAndTheSessionAtOnce_stallNothing_andTheRealDecisionWinsPromptly() throws Exception {
    SessionWorkflow s = start();
    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("notes")));
    PendingApproval p = awaitPending(s);

    ReplayTest.forgeSignals(h, p);
    long t0 = System.nanoTime();
    ApprovalResult r = s.approve(new ApprovalDecision(p.approvalId(), "grant", "alice", null));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertEquals(ApprovalResult.GRANTED, r.decision());
    assertTrue(ms < 10_000, "each side asked the other at once and neither waited on the other: " + ms + " ms");
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
    assertEquals(List.of("alice"), h.approvals.decisions.stream().map(ApprovalResult::decidedBy).toList());
  }
}
