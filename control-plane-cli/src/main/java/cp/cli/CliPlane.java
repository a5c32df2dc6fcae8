package cp.cli;

import cp.client.ControlPlaneClient;
import cp.contracts.Catalog;
import cp.observability.Telemetry;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.ProcessServices;
import cp.worker.TemporalConnection;

/**
 * What a client command connects to. Without {@code TEMPORAL_ADDRESS} that is an in-process
 * Temporal service with its own worker (the plane runs inside this process); with it, only a
 * client of the service named there.
 */
final class CliPlane implements AutoCloseable {
  final TemporalConnection connection;
  final PlaneRuntime runtime;
  final PlaneWorker worker;
  final ControlPlaneClient client;
  /** Traces as the OTEL_* variables say (issue 14); closed last, so the turn's last spans are flushed. */
  private final Telemetry telemetry;

  private CliPlane(PlaneConfig config, TemporalConnection connection, Catalog catalog, PlaneRuntime runtime,
      PlaneWorker worker, Telemetry telemetry) {
    this.telemetry = telemetry;
    this.connection = connection;
    this.runtime = runtime;
    this.worker = worker;
    this.client = new ControlPlaneClient(connection.client(), config.worker().taskQueue(), catalog.agentClasses(),
        config.worker().continueAsNewAfterTurns(), config.worker().serviceLostAfter());
  }

  /**
   * Connects; with the embedded service, also starts the runtime and a worker in this process.
   * The catalog is the runtime's when there is one, else loaded here (either way before connecting).
   */
  static CliPlane open(PlaneConfig config, java.util.Map<String, String> env) {
    // Passed to what reports, the ledger stores included (issue 21: no process-wide telemetry).
    Telemetry telemetry = Telemetry.fromEnv(env, null);
    try {
      return open(config, telemetry);
    } catch (RuntimeException e) {
      telemetry.close();
      throw e;
    }
  }

  private static CliPlane open(PlaneConfig config, Telemetry telemetry) {
    PlaneRuntime runtime = config.embedded() ? PlaneRuntime.open(config, ProcessServices.of(telemetry)) : null;
    Catalog catalog = runtime != null ? runtime.catalog() : config.loadCatalog();
    TemporalConnection conn;
    try {
      conn = TemporalConnection.open(config, telemetry);
    } catch (RuntimeException e) {
      if (runtime != null) {
        runtime.close();
      }
      throw e;
    }
    PlaneWorker worker = null;
    try {
      if (conn.isEmbedded()) {
        conn.ensureSearchAttributes();
        worker = PlaneWorker.startSoleWorker(conn, runtime, "chat");
      }
      return new CliPlane(config, conn, catalog, runtime, worker, telemetry);
    } catch (RuntimeException e) {
      conn.close();
      if (runtime != null) {
        runtime.close();
      }
      throw e;
    }
  }

  /** Refuses commands that need sessions living in a shared service when there is none. */
  static void requireSharedService(PlaneConfig config, String command) {
    if (config.embedded()) {
      throw new Cpctl.UsageException("'cpctl " + command + "' needs a running Temporal service shared with a worker:"
          + " set TEMPORAL_ADDRESS (e.g. run 'cpctl dev-server' and 'cpctl worker' first), or use 'cpctl chat'");
    }
  }

  @Override
  public void close() {
    client.close();
    if (worker != null) {
      worker.close();
    }
    connection.close();
    if (runtime != null) {
      runtime.close();
    }
    telemetry.close();
  }
}
