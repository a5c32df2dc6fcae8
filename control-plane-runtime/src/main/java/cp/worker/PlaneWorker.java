package cp.worker;

import cp.activities.ApprovalLookupActivitiesImpl;
import cp.activities.LedgerFailures;
import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A started worker: the plane's workflows and activities polling the task queue.
 *
 * <p>{@link #drain} is the graceful stop (SIGTERM, issue 20 §3): polling stops at once, activities
 * already running finish within a grace period and report their results to Temporal, so an LLM
 * call in flight is neither cut off nor sent again by the next worker.
 */
public final class PlaneWorker implements AutoCloseable {
  /** How long {@link #close()} waits for running activities (embedded uses; a worker process uses {@link #drain}). */
  public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);
  /** How often a drain looks whether its activities are done (they end whenever their call ends). */
  static final Duration DRAIN_STEP = Duration.ofMillis(100);
  /**
   * Once no activity of ours runs, how long the pollers and a workflow task in progress get to end
   * (milliseconds normally) before they are stopped: a poll blocked on a lost service would
   * otherwise hold the worker for its whole RPC timeout, with nothing left to save.
   */
  static final Duration IDLE_TAIL = Duration.ofSeconds(2);
  /** After the grace: how long the interrupted activities get to unwind before the process goes on closing. */
  static final Duration ABANDON_WAIT = Duration.ofSeconds(5);

  private final WorkerFactory factory;
  private final ActivitiesInFlight inFlight;
  private final java.util.concurrent.atomic.AtomicReference<Drained> abandoned =
      new java.util.concurrent.atomic.AtomicReference<>();

  private PlaneWorker(WorkerFactory factory, ActivitiesInFlight inFlight) {
    this.factory = factory;
    this.inFlight = inFlight;
  }

  /** How a drain ended: every activity finished within the grace, or these were abandoned. */
  public record Drained(boolean complete, List<String> abandoned, long millis) {
    public Drained {
      abandoned = List.copyOf(abandoned);
    }
  }

  /** Hears what a drain does, for the worker's output. */
  public interface DrainLog {
    /** A step as planned. */
    void line(String text);

    /** Work abandoned. */
    void warn(String text);
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
    ActivitiesInFlight inFlight = new ActivitiesInFlight();
    MissingAgentClasses missing = new MissingAgentClasses(MissingAgentClasses.definitionsFrom(runtime.config()),
        runtime.catalog().agentClasses(), s.taskQueue());
    WorkerFactory factory = WorkerFactory.newInstance(conn.client(),
        with(with(withLedgerFailures(withTelemetry(factoryOptions, conn.telemetry())), inFlight), missing));
    register(factory.newWorker(s.taskQueue(), TemporalOptions.workerOptions(stickyOff, role)), conn.client(), runtime,
        s);
    factory.start();
    return new PlaneWorker(factory, inFlight);
  }

  private static WorkerFactoryOptions with(WorkerFactoryOptions options, WorkerInterceptor added) {
    List<WorkerInterceptor> interceptors = new ArrayList<>();
    interceptors.add(added);
    if (options.getWorkerInterceptors() != null) {
      interceptors.addAll(Arrays.asList(options.getWorkerInterceptors()));
    }
    return WorkerFactoryOptions.newBuilder(options).setWorkerInterceptors(interceptors.toArray(WorkerInterceptor[]::new))
        .build();
  }

  /** {@code options} plus the telemetry's tracing and turn-metrics interceptors ({@link TemporalTelemetry}), if any. */
  public static WorkerFactoryOptions withTelemetry(WorkerFactoryOptions options, cp.observability.Telemetry telemetry) {
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

  /**
   * Registers the workflows (with the configured activity options) and the activities; the
   * approval look-ups (issue 20) ask the session and turn workflows through {@code client}.
   */
  public static void register(Worker worker, WorkflowClient client, PlaneRuntime runtime, WorkerSettings s) {
    worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(s), SessionWorkflowImpl.class,
        TurnWorkflowImpl.class, cp.workflows.AgentClassesWorkflowImpl.class, cp.workflows.EvalJudgeWorkflowImpl.class);
    worker.registerActivitiesImplementations(runtime.activities(client));
    worker.registerActivitiesImplementations(new ApprovalLookupActivitiesImpl(client));
  }

  /** Whether the worker polls its task queue (started, not shut down). */
  public boolean polling() {
    return factory.isStarted() && !factory.isShutdown();
  }

  /** The activities running now, one line each. */
  public List<String> running() {
    return inFlight.running();
  }

  /**
   * Stops polling and lets the activities in flight finish within {@code grace}, their results
   * reported to Temporal; what still runs then is interrupted and abandoned (Temporal gives it to
   * another worker after its heartbeat or start-to-close timeout). Says each step to {@code log}.
   */
  public Drained drain(Duration grace, DrainLog log) {
    long start = System.nanoTime();
    long deadline = start + grace.toNanos();
    List<String> running = inFlight.running();
    factory.shutdown();
    log.line(running.isEmpty() ? "draining: polling stopped, no activity running"
        : "draining: polling stopped; waiting up to " + grace.toSeconds() + " s for " + running.size()
            + " running activit" + (running.size() == 1 ? "y" : "ies") + ": " + String.join(", ", running));
    while (!factory.isTerminated() && System.nanoTime() < deadline && abandoned.get() == null) {
      if (inFlight.running().isEmpty()) {
        // Nothing of ours runs: what is left are pollers and at most a workflow task. A poll blocked on
        // an unreachable service would hold the worker for its whole RPC timeout, with nothing to save.
        factory.awaitTermination(Math.min(IDLE_TAIL.toNanos(), deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (!factory.isTerminated()) {
          factory.shutdownNow();
        }
        break;
      }
      factory.awaitTermination(DRAIN_STEP.toMillis(), TimeUnit.MILLISECONDS);
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    if (abandoned.get() != null) {
      return abandoned.get();
    }
    if (inFlight.running().isEmpty()) {
      log.line("drained in " + millis + " ms: every running activity finished and reported its result");
      return new Drained(true, List.of(), millis);
    }
    return abandon("the grace of " + grace.toSeconds() + " s (" + OpsSettings.SHUTDOWN_GRACE + ") passed", log,
        start);
  }

  /**
   * Stops at once what still runs (a second SIGTERM, or the grace passed): interrupts the running
   * activities and names them; Temporal retries each on another worker.
   */
  public synchronized Drained abandon(String why, DrainLog log, long startNanos) {
    if (abandoned.get() != null) {
      return abandoned.get();
    }
    List<String> left = inFlight.running();
    log.warn(why + ": abandoning " + left.size() + " running activit" + (left.size() == 1 ? "y" : "ies")
        + (left.isEmpty() ? "" : " (" + String.join(", ", left) + ")")
        + "; Temporal retries each on another worker after its heartbeat timeout, and an LLM call cut off"
        + " here is sent (and paid for) again there");
    Drained d = new Drained(false, left, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    abandoned.set(d);
    factory.shutdownNow();
    factory.awaitTermination(ABANDON_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    return d;
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
