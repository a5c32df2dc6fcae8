package cp.bench;

import cp.client.ControlPlaneClient;
import cp.model.TurnResult;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import java.util.Map;

/**
 * The orchestrated side: the embedded Temporal service, a worker with the plane's workflows and
 * activities, and the client, assembled as {@code cpctl chat} assembles them.
 */
final class OrchestratedPlane implements AutoCloseable {
  final PlaneConfig config;
  final PlaneRuntime runtime;
  final TemporalConnection connection;
  final PlaneWorker worker;
  final ControlPlaneClient client;

  private OrchestratedPlane(PlaneConfig config, PlaneRuntime runtime, TemporalConnection connection,
      PlaneWorker worker) {
    this.config = config;
    this.runtime = runtime;
    this.connection = connection;
    this.worker = worker;
    this.client = new ControlPlaneClient(connection.client(), config.worker().taskQueue(),
        runtime.catalog().agentClasses(), config.worker().continueAsNewAfterTurns());
  }

  static OrchestratedPlane open(Map<String, String> env) {
    return open(env, cp.observability.Telemetry.NOOP);
  }

  /** A plane reporting to {@code telemetry} (its runtime, its connection and worker). */
  static OrchestratedPlane open(Map<String, String> env, cp.observability.Telemetry telemetry) {
    PlaneConfig config = PlaneConfig.fromEnv(env);
    PlaneRuntime runtime = PlaneRuntime.open(config, cp.worker.ProcessServices.of(telemetry));
    TemporalConnection connection = null;
    try {
      connection = TemporalConnection.open(config, telemetry);
      connection.ensureSearchAttributes();
      PlaneWorker worker = PlaneWorker.startSoleWorker(connection, runtime, "bench");
      return new OrchestratedPlane(config, runtime, connection, worker);
    } catch (RuntimeException e) {
      if (connection != null) {
        connection.close();
      }
      runtime.close();
      throw e;
    }
  }

  /** One turn, timed from the client's call to its result, in milliseconds. */
  double timedTurn(String sessionId, String text) {
    long start = System.nanoTime();
    TurnResult r = client.turn(sessionId, text);
    double ms = Stats.millisSince(start);
    PlainTurnLoop.requireSuccess(r.outcome(), sessionId, r.response());
    return ms;
  }

  @Override
  public void close() {
    client.close();
    worker.close();
    connection.close();
    runtime.close();
  }
}
