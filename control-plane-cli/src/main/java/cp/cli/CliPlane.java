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
  /** The agent classes of this process's own catalog (the shipped ones, or the embedded runtime's). */
  private final java.util.List<String> ownClasses;
  /** Traces as the OTEL_* variables say (issue 14); closed last, so the turn's last spans are flushed. */
  private final Telemetry telemetry;

  private CliPlane(PlaneConfig config, TemporalConnection connection, Catalog catalog, PlaneRuntime runtime,
      PlaneWorker worker, Telemetry telemetry) {
    this.telemetry = telemetry;
    this.connection = connection;
    this.runtime = runtime;
    this.worker = worker;
    // With a worker in this process its catalog is the plane's; against a shared service the
    // workers' catalogs are (they may define classes this process does not know): the session
    // checks the class and refuses an unknown one naming the classes the workers know.
    this.ownClasses = catalog.agentClasses();
    this.client = new ControlPlaneClient(connection.client(), config.worker().taskQueue(),
        runtime != null ? catalog.agentClasses() : java.util.List.of(), config.worker().continueAsNewAfterTurns(),
        config.worker().serviceLostAfter());
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

  /** How long a session start waits for a worker to say which agent classes it knows: a live one answers in well under a second. */
  static final java.time.Duration WORKER_CLASSES_WITHIN = java.time.Duration.ofSeconds(5);

  /**
   * Refuses to start a session for an agent class the workers do not know, naming those they do.
   * With a worker in this process the client checks against its catalog; against a shared
   * service the workers are asked (the workflow {@code AgentClasses}): they may define classes
   * this process does not know. A class of this process's own catalog is not asked about (every
   * worker has the shipped agents), so starting ADMIN costs nothing extra. When no worker answers in
   * time the session checks the class itself.
   *
   * @throws cp.client.ClientException REFUSED naming the classes the workers know
   */
  void requireKnownAgentClass(String agentClass, String taskQueue) {
    if (runtime != null || agentClass == null
        || ownClasses.contains(agentClass.trim().toUpperCase(java.util.Locale.ROOT))) {
      return; // a class this process's catalog has is every worker's (the shipped agents): nothing to ask
    }
    java.util.List<cp.model.AgentClassInfo> known;
    try {
      known = cp.client.AgentClasses.ask(connection.client(), taskQueue, WORKER_CLASSES_WITHIN);
    } catch (cp.client.ClientException e) {
      return;
    }
    String cls = agentClass.trim().toUpperCase(java.util.Locale.ROOT);
    if (known.stream().noneMatch(k -> k.agentClass().equals(cls))) {
      throw new cp.client.ClientException(cp.client.ClientException.Kind.REFUSED, "unknown agent class '" + agentClass
          + "' (known: " + String.join(", ", known.stream().map(cp.model.AgentClassInfo::agentClass).toList())
          + ")");
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
