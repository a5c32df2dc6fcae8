package cp.worker;

import cp.activities.LedgerFailures;
import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A started worker: the plane's workflows and activities polling the task queue. */
public final class PlaneWorker implements AutoCloseable {
  /** How long a graceful shutdown waits for running activities. */
  public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

  private final WorkerFactory factory;

  private PlaneWorker(WorkerFactory factory) {
    this.factory = factory;
  }

  /** A worker; sticky execution is off against the SDK's test server (see {@link TemporalOptions#workerOptions}). */
  public static PlaneWorker start(TemporalConnection conn, PlaneRuntime runtime, String role) {
    return start(conn, runtime, role, WorkerFactoryOptions.newBuilder().build());
  }

  public static PlaneWorker start(TemporalConnection conn, PlaneRuntime runtime, String role,
      WorkerFactoryOptions factoryOptions) {
    return start(conn, runtime, role, factoryOptions, conn.isTestServer());
  }

  /**
   * The sole worker of an in-process embedded service that stops only with it ({@code cpctl chat}
   * without TEMPORAL_ADDRESS, {@code cpctl bench}): no other worker will ever need the workflows
   * it holds, so sticky execution is safe and on, and a workflow task carries only new events
   * instead of replaying the whole history. Against any other service this is {@link #start}.
   */
  public static PlaneWorker startSoleWorker(TemporalConnection conn, PlaneRuntime runtime, String role) {
    return start(conn, runtime, role, WorkerFactoryOptions.newBuilder().build(),
        conn.isTestServer() && !conn.isEmbedded());
  }

  private static PlaneWorker start(TemporalConnection conn, PlaneRuntime runtime, String role,
      WorkerFactoryOptions factoryOptions, boolean stickyOff) {
    WorkerSettings s = runtime.config().worker();
    WorkerFactory factory = WorkerFactory.newInstance(conn.client(),
        withLedgerFailures(withTelemetry(factoryOptions, conn.telemetry())));
    register(factory.newWorker(s.taskQueue(), TemporalOptions.workerOptions(stickyOff, role)), runtime, s);
    factory.start();
    return new PlaneWorker(factory);
  }

  /** {@code options} plus the telemetry's tracing and turn-metrics interceptors ({@link TemporalTelemetry}), if any. */
  static WorkerFactoryOptions withTelemetry(WorkerFactoryOptions options, cp.observability.Telemetry telemetry) {
    List<WorkerInterceptor> added = TemporalTelemetry.workerInterceptors(telemetry);
    if (added.isEmpty()) {
      return options;
    }
    List<WorkerInterceptor> interceptors = new ArrayList<>(added);
    if (options.getWorkerInterceptors() != null) {
      interceptors.addAll(Arrays.asList(options.getWorkerInterceptors()));
    }
    return WorkerFactoryOptions.newBuilder(options).setWorkerInterceptors(interceptors.toArray(WorkerInterceptor[]::new))
        .build();
  }

  /** {@code options} plus {@link LedgerFailures}, so a refused ledger append fails its activity in plain words. */
  static WorkerFactoryOptions withLedgerFailures(WorkerFactoryOptions options) {
    List<WorkerInterceptor> interceptors = new ArrayList<>();
    if (options.getWorkerInterceptors() != null) {
      interceptors.addAll(Arrays.asList(options.getWorkerInterceptors()));
    }
    interceptors.add(new LedgerFailures());
    return WorkerFactoryOptions.newBuilder(options).setWorkerInterceptors(interceptors.toArray(WorkerInterceptor[]::new))
        .build();
  }

  /** Registers the workflows (with the configured activity options) and the activities. */
  public static void register(Worker worker, PlaneRuntime runtime, WorkerSettings s) {
    worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(s), SessionWorkflowImpl.class,
        TurnWorkflowImpl.class, cp.workflows.AgentClassesWorkflowImpl.class);
    worker.registerActivitiesImplementations(runtime.activities());
  }

  /** Stops polling and waits (bounded) for activities in flight. */
  @Override
  public void close() {
    factory.shutdown();
    factory.awaitTermination(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops at once, as a crash would (tests). */
  public void kill() {
    factory.shutdownNow();
  }
}
