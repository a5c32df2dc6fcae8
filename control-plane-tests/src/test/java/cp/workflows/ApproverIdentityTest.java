package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.Refusal;
import cp.model.SessionInput;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.worker.TemporalOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 §1 "Approver identity": the agent's policy names its approvers and the session refuses
 * any other name (typed, {@code approver_not_allowed}); what is recorded beside the claimed name is
 * the identity the Temporal service recorded for the client that sent the {@code approve} Update.
 */
class ApproverIdentityTest {
  static final String SID = "SES-0e0e0e0e";
  FakeActivities.Ho1 ho1;
  FakeActivities.Session session;
  WorkflowHarness h;

  @BeforeEach
  void setUp() {
    ho1 = new FakeActivities.Ho1();
    session = new FakeActivities.Session();
    h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session, 600, false);
    session.profile = ApprovalScenario.writeToolProfile(600, 300, List.of("alice", "bob"));
    ApprovalScenario.writesOnceThenAnswers(ho1);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private PendingApproval awaitPending(SessionWorkflow s) throws InterruptedException {
    return ApprovalScenario.awaitPending(s);
  }


  private static ApplicationFailure refusal(Runnable r) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class, r::run);
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure af) {
        return af;
      }
    }
    throw new AssertionError("no ApplicationFailure in " + e);
  }

  @Test
  void aNameTheAgentsPolicyDoesNotList_isRefusedTyped_andANameItListsDecides_recordedWithTheClientsIdentity()
      throws Exception {
    WorkflowClient.start(h.sessionStub(SID)::run, new SessionInput(SID, "ADMIN", null, 0));
    SessionWorkflow s = h.client.newWorkflowStub(SessionWorkflow.class, SID);
    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("notes")));
    PendingApproval p = awaitPending(s);

    ApplicationFailure spoofed = refusal(() -> s.approve(new ApprovalDecision(p.approvalId(), "grant",
        "security-officer (spoofed)", null)));
    assertEquals(Refusal.APPROVAL_REFUSED, spoofed.getType());
    assertTrue(spoofed.isNonRetryable());
    assertEquals("approver_not_allowed", spoofed.getDetails().get(0, Refusal.class).code());
    assertTrue(spoofed.getOriginalMessage().contains("alice, bob"), spoofed.getOriginalMessage());
    assertEquals(1, s.state().pendingApprovals().size(), "the refusal changed nothing");
    assertEquals("invalid_decision", refusal(() -> s.approve(new ApprovalDecision(p.approvalId(), "grant",
        "ali\u202Eec", null))).getDetails().get(0, Refusal.class).code(), "a name with a bidi override is no name");

    // Another client, another identity: the service records it with the Update, whatever name it claims.
    WorkflowClient laptop = WorkflowClient.newInstance(h.env.getWorkflowServiceStubs(), WorkflowClientOptions
        .newBuilder().setIdentity("alice@laptop:4242").setDataConverter(TemporalOptions.dataConverter()).build());
    ApprovalResult r = laptop.newWorkflowStub(SessionWorkflow.class, SID)
        .approve(new ApprovalDecision(p.approvalId(), "grant", "alice", "ok"));

    assertEquals(ApprovalResult.GRANTED, r.decision());
    assertEquals("alice", r.decidedBy());
    assertEquals("alice@laptop:4242", r.clientIdentity());
    assertEquals(TurnOutcome.SUCCESS, turn.get(20, TimeUnit.SECONDS).outcome());
    ApprovalResult recorded = h.approvals.decisions.get(0);
    assertEquals(List.of("alice", "alice@laptop:4242"), List.of(recorded.decidedBy(), recorded.clientIdentity()),
        "APPROVAL_DECIDED records the claimed name and the identity the service saw");
    assertEquals("alice@laptop:4242", ho1.tools.get(0).approval().clientIdentity());
    assertFalse(s.state().pendingApprovals().stream().anyMatch(x -> x.approvalId().equals(p.approvalId())));
  }
}
