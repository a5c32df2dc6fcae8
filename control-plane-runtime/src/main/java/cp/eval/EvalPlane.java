package cp.eval;

import cp.observability.Telemetry;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.ProcessServices;
import cp.worker.TemporalConnection;
import io.temporal.client.WorkflowClient;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The eval worker a run starts in its own process (issue 25 §1): the plane's runtime built from the
 * run's {@link EvalScope} configuration (its own plane root, the run's model, agent definitions and
 * resources), its tools behind {@link ToolReplay}, polling the run's own task queue. Without
 * TEMPORAL_ADDRESS the Temporal service is embedded in this process too (as {@code cpctl chat}'s);
 * with it, the worker joins that service, where the run's sessions outlive this process.
 */
public final class EvalPlane implements AutoCloseable {
  private final PlaneRuntime runtime;
  private final TemporalConnection connection;
  private final PlaneWorker worker;
  private final ToolReplay replay;

  private EvalPlane(PlaneRuntime runtime, TemporalConnection connection, PlaneWorker worker, ToolReplay replay) {
    this.runtime = runtime;
    this.connection = connection;
    this.worker = worker;
    this.replay = replay;
  }

  /** Builds the runtime for {@code scope}, connects and starts polling its task queue. */
  public static EvalPlane start(EvalScope scope, Telemetry telemetry) {
    PlaneConfig config = scope.config();
    AtomicReference<ToolReplay> replay = new AtomicReference<>();
    PlaneRuntime runtime = PlaneRuntime.open(config, deps -> {
      ToolReplay r = new ToolReplay(PlaneRuntime.builtinTools(deps));
      replay.set(r);
      return r;
    }, ProcessServices.of(telemetry));
    TemporalConnection conn;
    try {
      conn = TemporalConnection.open(config, telemetry);
    } catch (RuntimeException e) {
      runtime.close();
      throw e;
    }
    try {
      conn.ensureSearchAttributes();
      PlaneWorker worker = conn.isEmbedded() ? PlaneWorker.startSoleWorker(conn, runtime, "eval")
          : PlaneWorker.start(conn, runtime, "eval");
      return new EvalPlane(runtime, conn, worker, replay.get());
    } catch (RuntimeException e) {
      conn.close();
      runtime.close();
      throw e;
    }
  }

  public PlaneRuntime runtime() {
    return runtime;
  }

  public WorkflowClient client() {
    return connection.client();
  }

  /** Whether the Temporal service lives in this process (and its sessions die with it). */
  public boolean embedded() {
    return connection.isEmbedded();
  }

  public ToolReplay replay() {
    return replay;
  }

  @Override
  public void close() {
    worker.close();
    connection.close();
    runtime.close();
  }
}
