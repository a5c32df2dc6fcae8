package cp.workflows;

import cp.activities.Ho1Activities;
import cp.activities.Ho2Activities;
import cp.activities.SessionActivities;
import cp.model.TurnInput;
import cp.model.TurnResult;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalOptions;
import cp.worker.WorkerSettings;
import cp.worker.codec.PayloadKey;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.util.Optional;

/** A Temporal test environment with the plane's workflows and the given activities. */
final class WorkflowHarness implements AutoCloseable {
  static final String QUEUE = "test-queue";
  final TestWorkflowEnvironment env;
  final WorkflowClient client;
  final Worker worker;
  /** Issue 15: the approval records of every turn this harness runs. */
  final FakeActivities.Approvals approvals = new FakeActivities.Approvals();

  WorkflowHarness(Ho1Activities ho1, Ho2Activities ho2, SessionActivities session) {
    this(ho1, ho2, session, 600, true);
  }

  WorkflowHarness(Ho1Activities ho1, Ho2Activities ho2, SessionActivities session, int cacheSize, boolean timeSkipping) {
    this(ho1, ho2, session, cacheSize, timeSkipping, Optional.empty());
  }

  /** With {@code payloadKey}, the client and worker encrypt payloads as a plane with CP_PAYLOAD_KEY does. */
  WorkflowHarness(Ho1Activities ho1, Ho2Activities ho2, SessionActivities session, int cacheSize, boolean timeSkipping,
      Optional<PayloadKey> payloadKey) {
    if (ho1 instanceof FakeActivities.Ho1 fake && ho2 instanceof FakeActivities.Ho2 fakeHo2) {
      fake.plans = fakeHo2; // plan-in-round 1: a round that records its work order's plan writes to HO2
    }
    env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setUseTimeskipping(timeSkipping)
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder()
            .setDataConverter(TemporalOptions.dataConverter(payloadKey)).build())
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(cacheSize).build())
        .build());
    SearchAttributeRegistrar.required().forEach(env::registerSearchAttribute);
    WorkerSettings settings = WorkerSettings.defaults().withTaskQueue(QUEUE)
        .withRetry(Duration.ofMillis(10), Duration.ofMillis(50), 3);
    worker = env.newWorker(QUEUE, TemporalOptions.workerOptions(true, "test"));
    worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(settings),
        SessionWorkflowImpl.class, TurnWorkflowImpl.class, TurnParentWorkflow.Impl.class);
    worker.registerActivitiesImplementations(ho1, ho2, session, approvals,
        new cp.activities.ApprovalLookupActivitiesImpl(env.getWorkflowClient()));
    env.start();
    client = env.getWorkflowClient();
  }

  /**
   * Runs turn {@code in} as its session would, as the child {@code turnWorkflowId} of a workflow
   * whose id is the turn's session id (a turn started any other way is refused: {@link TurnOrigin}).
   */
  TurnResult runTurn(String turnWorkflowId, TurnInput in) {
    return client.newWorkflowStub(TurnParentWorkflow.class, WorkflowOptions.newBuilder().setTaskQueue(QUEUE)
        .setWorkflowId(in.sessionId()).build()).run(turnWorkflowId, in);
  }

  /** A stub to start a turn directly, as a client with access to the namespace could (it is refused). */
  TurnWorkflow turnStub(String id) {
    return client.newWorkflowStub(TurnWorkflow.class, WorkflowOptions.newBuilder().setTaskQueue(QUEUE)
        .setWorkflowId(id).build());
  }

  SessionWorkflow sessionStub(String sessionId) {
    return client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder().setTaskQueue(QUEUE)
        .setWorkflowId(sessionId)
        .setTypedSearchAttributes(SearchAttributes.newBuilder()
            .set(CpSearchAttributes.SESSION_ID, sessionId)
            .set(CpSearchAttributes.AGENT_CLASS, "ADMIN")
            .set(CpSearchAttributes.TURN, 0L).build())
        .build());
  }

  @Override
  public void close() {
    env.close();
  }
}
