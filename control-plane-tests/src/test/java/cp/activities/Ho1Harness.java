package cp.activities;

import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.LlmProvider;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.PlaneLayout;
import cp.ledger.VerifyResult;
import cp.model.WorkOrder;
import cp.tools.ToolExecutor;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalOptions;
import cp.worker.WorkerSettings;
import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import cp.workflows.WorkOrderRunner;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The real HO1 activities on an in-memory Temporal service, running work orders through
 * {@link WorkOrderTestWorkflow}.
 *
 * <p>One service serves a test class ({@link #start}); each test opens its own plane
 * ({@link #plane}): a {@link PlaneRuntime} on a fresh plane root around the test's provider and
 * tool executor, the same assembly a worker process uses. The service runs in real time: HO1's
 * timeouts and retries are under test, and skipping time while a provider call is in flight
 * could time out its heartbeat.
 */
final class Ho1Harness implements AutoCloseable {
  static final String QUEUE = "ho1-test";
  /** Prices that make cost visible: $3 and $15 per million input and output tokens. */
  static final double INPUT_PRICE = 3.0;
  static final double OUTPUT_PRICE = 15.0;
  /** Quick retries, three LLM attempts: retry tests finish in milliseconds. */
  static final WorkerSettings FAST_RETRIES = WorkerSettings.defaults().withTaskQueue(QUEUE)
      .withRetry(Duration.ofMillis(10), Duration.ofMillis(50), 3);
  /** A hung work order fails the test instead of blocking it. */
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

  final TestWorkflowEnvironment env;
  final WorkflowClient client;
  private final PlaneActivities.Ho1 ho1 = new PlaneActivities.Ho1();
  private final PlaneActivities.Ho2 ho2 = new PlaneActivities.Ho2();
  private final PlaneActivities.Session session = new PlaneActivities.Session();
  private final AtomicInteger runs = new AtomicInteger();
  private PlaneRuntime runtime;
  private String lastWorkflowId;
  private String lastRunId;

  private Ho1Harness(WorkerSettings settings, int workflowCacheSize) {
    env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setUseTimeskipping(false)
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder()
            .setDataConverter(TemporalOptions.dataConverter()).build())
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(workflowCacheSize).build())
        .build());
    SearchAttributeRegistrar.required().forEach(env::registerSearchAttribute);
    Worker worker = env.newWorker(settings.taskQueue(), TemporalOptions.workerOptions(true, "ho1-test"));
    worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(settings),
        WorkOrderTestWorkflowImpl.class, ClassicWorkOrderTestWorkflowImpl.class, SessionWorkflowImpl.class,
        TurnWorkflowImpl.class);
    worker.registerActivitiesImplementations(ho1, ho2, session);
    env.start();
    client = env.getWorkflowClient();
  }

  /** A service with fast retries and the default workflow cache. */
  static Ho1Harness start() {
    return start(FAST_RETRIES, 600);
  }

  /** A service whose workers run with {@code settings} and a workflow cache of {@code cacheSize}. */
  static Ho1Harness start(WorkerSettings settings, int cacheSize) {
    return new Ho1Harness(settings, cacheSize);
  }

  /** Opens a plane on {@code home}; the workers use its activities until the next {@link #closePlane}. */
  Ho1Harness plane(Path home, LlmProvider provider, ToolExecutor tools) {
    return plane(home, provider, tools, UnaryOperator.identity());
  }

  /** As {@link #plane(Path, LlmProvider, ToolExecutor)}, registering {@code wrap(real HO1)} as HO1. */
  Ho1Harness plane(Path home, LlmProvider provider, ToolExecutor tools, UnaryOperator<Ho1Activities> wrap) {
    if (runtime != null) {
      throw new IllegalStateException("a plane is open; close it first");
    }
    PlaneConfig config = PlaneConfig.fromEnv(Map.of(
        "CP_HOME", home.toString(),
        "CP_PRICE_INPUT_PER_MTOK", String.valueOf(INPUT_PRICE),
        "CP_PRICE_OUTPUT_PER_MTOK", String.valueOf(OUTPUT_PRICE)));
    runtime = PlaneRuntime.open(config, provider, deps -> tools, Clock.systemUTC());
    for (Object a : runtime.activities()) {
      if (a instanceof Ho1Activities h) {
        ho1.target = wrap.apply(h);
      } else if (a instanceof Ho2Activities h) {
        ho2.target = h;
      } else if (a instanceof SessionActivities s) {
        session.target = s;
      }
    }
    return this;
  }

  PlaneRuntime runtime() {
    return runtime;
  }

  /** Checks every ledger's hash chain, then closes the plane. */
  void closePlane() {
    if (runtime == null) {
      return;
    }
    try {
      assertChainsVerify();
    } finally {
      ho1.target = null;
      ho2.target = null;
      session.target = null;
      runtime.close();
      runtime = null;
    }
  }

  /** Runs one dispatched work order for ADMIN through HO1 and waits for the outcome. */
  WorkOrderRunner.Outcome run(WorkOrder dispatched) {
    String workflowId = "ho1-test-" + runs.incrementAndGet() + "/" + dispatched.woId();
    WorkOrderTestWorkflow stub = client.newWorkflowStub(WorkOrderTestWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(QUEUE).setWorkflowId(workflowId).setWorkflowRunTimeout(RUN_TIMEOUT).build());
    WorkOrderRunner.Outcome out = stub.run(dispatched, WorkOrders.AGENT);
    lastWorkflowId = workflowId;
    lastRunId = WorkflowStub.fromTyped(stub).getExecution().getRunId();
    return out;
  }

  /** As {@link #run}, with the classic runner (prepare and finish as local activities). */
  WorkOrderRunner.Outcome runClassic(WorkOrder dispatched) {
    String workflowId = "ho1-classic-" + runs.incrementAndGet() + "/" + dispatched.woId();
    ClassicWorkOrderTestWorkflow stub = client.newWorkflowStub(ClassicWorkOrderTestWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(workflowId).setWorkflowRunTimeout(RUN_TIMEOUT)
            .build());
    WorkOrderRunner.Outcome out = stub.run(dispatched, WorkOrders.AGENT);
    lastWorkflowId = workflowId;
    lastRunId = WorkflowStub.fromTyped(stub).getExecution().getRunId();
    return out;
  }

  String lastWorkflowId() {
    return lastWorkflowId;
  }

  String lastRunId() {
    return lastRunId;
  }

  // ------------------------------------------------------------------ ledgers

  LedgerStream ho1Ledger() {
    return runtime.ledgers().ho1();
  }

  LedgerStream hotLedger() {
    return runtime.ledgers().hot();
  }

  List<LedgerEntry> ho1(String eventType) {
    return ho1Ledger().byEventType(eventType);
  }

  List<LedgerEntry> hot(String eventType) {
    return hotLedger().byEventType(eventType);
  }

  /** EXCHANGE records with decision SUCCESS: completed round trips. */
  List<LedgerEntry> successfulExchanges() {
    return successfulExchanges(runtime.ledgers().hot());
  }

  static List<LedgerEntry> successfulExchanges(LedgerStream hot) {
    return hot.byEventType("EXCHANGE").stream().filter(e -> "SUCCESS".equals(e.decision())).toList();
  }

  /** Event type to number of entries in HO1m, sorted by type. */
  Map<String, Long> ho1Counts() {
    return counts(ho1Ledger());
  }

  static Map<String, Long> counts(LedgerStream ledger) {
    Map<String, Long> counts = new TreeMap<>();
    for (LedgerEntry e : ledger.readAll()) {
      counts.merge(e.eventType(), 1L, Long::sum);
    }
    return counts;
  }

  /** Every ledger file under the plane root walks its hash chain cleanly. */
  void assertChainsVerify() {
    assertChainsVerify(runtime);
  }

  static void assertChainsVerify(PlaneRuntime runtime) {
    PlaneLayout layout = runtime.ledgers().layout();
    var all = runtime.ledgers().all();
    assertTrue(!all.isEmpty(), "no ledger was written");
    for (var f : all) {
      VerifyResult v = f.getValue().verify();
      assertTrue(v.ok(), () -> f.getKey().label() + " does not verify: " + v);
    }
  }

  // ------------------------------------------------------------------ history

  List<HistoryEvent> history(String workflowId) {
    return client.fetchHistory(workflowId).getEvents();
  }

  /** Activity ids of the ActivityTaskScheduled events of one activity type, in order. */
  List<String> scheduledActivityIds(String workflowId, String activityType) {
    return scheduledActivityIds(history(workflowId), activityType);
  }

  static List<String> scheduledActivityIds(List<HistoryEvent> history, String activityType) {
    return history.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
        .map(HistoryEvent::getActivityTaskScheduledEventAttributes)
        .filter(a -> a.getActivityType().getName().equals(activityType))
        .map(a -> a.getActivityId())
        .toList();
  }

  @Override
  public void close() {
    try {
      closePlane();
    } finally {
      env.close();
    }
  }
}
