package cp.cli;

import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code cpctl dev-server} and {@code cpctl worker} run, inside the test JVM: the embedded
 * service on a free port and a worker on it (offline provider), plus the environment a client
 * command needs to reach them ({@code TEMPORAL_ADDRESS}).
 */
final class SharedService implements AutoCloseable {
  final EmbeddedTemporal server;
  final PlaneRuntime runtime;
  final TemporalConnection workerConnection;
  final PlaneWorker worker;
  private final Map<String, String> env;

  private SharedService(EmbeddedTemporal server, PlaneRuntime runtime, TemporalConnection conn, PlaneWorker worker,
      Map<String, String> env) {
    this.server = server;
    this.runtime = runtime;
    this.workerConnection = conn;
    this.worker = worker;
    this.env = env;
  }

  /** Starts the service and a worker for the plane root {@code home}. */
  static SharedService start(Path home) throws IOException {
    return start(home, Map.of());
  }

  /** Starts the service and a worker for the plane root {@code home}, the worker's environment with {@code extra}. */
  static SharedService start(Path home, Map<String, String> extra) throws IOException {
    int port = CliHarness.closedPort();
    EmbeddedTemporal server = EmbeddedTemporal.onPort(port);
    SearchAttributeRegistrar.ensure(server.operator(), PlaneConfig.DEFAULT_NAMESPACE);
    Map<String, String> env = CliHarness.env(home);
    env.putAll(extra);
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    PlaneConfig config = PlaneConfig.fromEnv(env);
    PlaneRuntime runtime = PlaneRuntime.open(config);
    TemporalConnection conn = TemporalConnection.open(config);
    PlaneWorker worker = PlaneWorker.start(conn, runtime, "test-worker");
    return new SharedService(server, runtime, conn, worker, env);
  }

  /** A fresh copy of the client environment. */
  Map<String, String> env() {
    return new HashMap<>(env);
  }

  @Override
  public void close() {
    worker.kill();
    workerConnection.close();
    runtime.close();
    server.close();
  }
}
