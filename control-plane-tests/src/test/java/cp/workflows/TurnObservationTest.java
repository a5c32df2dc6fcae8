package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.AgentProfile;
import cp.model.ApprovalDecision;
import cp.model.Json;
import cp.model.SessionInput;
import cp.model.ToolApproval;
import cp.model.TurnOutcome;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.observability.PlaneMetrics;
import cp.observability.Telemetry;
import cp.worker.PlaneWorker;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalOptions;
import cp.worker.WorkerSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 §3 "turn latency without approval waits": a turn that waits {@link #WAIT} for a person
 * to approve its write_file call is counted with that wait in {@code cp.turn.latency}, without it in
 * {@code cp.turn.work.latency}, and the wait itself in {@code cp.approval.wait} (the worker's
 * TurnObserver, real workflows, fake activities, real time).
 */
class TurnObservationTest {
  static final String SID = "SES-0e0b5e77";
  static final Duration WAIT = Duration.ofMillis(1500);

  @Test
  void aTurnWaitingForApproval_countsTheWaitApart_fromTheTurnsOwnTime() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Telemetry telemetry = Telemetry.of(OpenTelemetry.noop(), registry, false);
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    FakeActivities.Session session = new FakeActivities.Session();
    AgentProfile p = FakeActivities.profile(100_000, 50);
    session.profile = new AgentProfile(p.agentClass(), p.agentId(), p.frameworkId(), p.attentionTemplateId(),
        List.of("read_file", "write_file"), p.sessionTokenLimit(), p.turnLimit(), p.timeoutSeconds(),
        p.idleTimeoutSeconds(), p.woTokenBudget(), p.woTurnLimit(), p.woTimeoutSeconds(), p.maxMessageBytes(),
        p.maxRetries(), p.maxResponseChars(), 300, List.of(new ToolApproval("write_file", 600, false)));
    AtomicInteger round = new AtomicInteger();
    ho1.synthesize = r -> round.incrementAndGet() == 1
        ? ho1.toolUse("write_file", Json.parse("{\"path\":\"HO2/notes.md\",\"content\":\"a\\n\"}"))
        : ho1.text("{\"response_text\":\"done\"}");

    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setUseTimeskipping(false)
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(TemporalOptions.dataConverter())
            .build())
        .setWorkerFactoryOptions(PlaneWorker.withTelemetry(WorkerFactoryOptions.newBuilder().build(), telemetry))
        .build())) {
      SearchAttributeRegistrar.required().forEach(env::registerSearchAttribute);
      Worker worker = env.newWorker(WorkflowHarness.QUEUE, TemporalOptions.workerOptions(true, "test"));
      worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(WorkerSettings.defaults()
          .withTaskQueue(WorkflowHarness.QUEUE).withRetry(Duration.ofMillis(10), Duration.ofMillis(50), 3)),
          SessionWorkflowImpl.class, TurnWorkflowImpl.class);
      worker.registerActivitiesImplementations(ho1, new FakeActivities.Ho2(), session, new FakeActivities.Approvals());
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      SessionWorkflow stub = client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
          .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(SID).build());
      WorkflowClient.start(stub::run, new SessionInput(SID, "ADMIN", null, 0));
      SessionWorkflow s = client.newWorkflowStub(SessionWorkflow.class, SID);

      CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> s.turn(new TurnRequest("write it")));
      String approval = null;
      while (approval == null) {
        var st = s.state();
        approval = st == null || st.pendingApprovals().isEmpty() ? null : st.pendingApprovals().get(0).approvalId();
        Thread.sleep(20);
      }
      Thread.sleep(WAIT.toMillis());
      s.approve(new ApprovalDecision(approval, "grant", "alice", null));
      assertEquals(TurnOutcome.SUCCESS, turn.get(30, TimeUnit.SECONDS).outcome());
    }

    double total = registry.get(PlaneMetrics.TURN_LATENCY).timer().totalTime(TimeUnit.MILLISECONDS);
    double work = registry.get(PlaneMetrics.TURN_WORK_LATENCY).timer().totalTime(TimeUnit.MILLISECONDS);
    double waited = registry.get(PlaneMetrics.APPROVAL_WAIT).tag("decision", "granted").timer()
        .totalTime(TimeUnit.MILLISECONDS);
    System.out.printf("turn %.0f ms = work %.0f ms + approval wait %.0f ms (+ the session's own steps)%n", total, work,
        waited);
    assertTrue(waited >= WAIT.toMillis(), "the wait is counted: " + waited);
    assertTrue(work < total - WAIT.toMillis(), "the turn's own time leaves the wait out: " + work + " of " + total);
    assertTrue(work > 0);
  }
}
