package cp.cli;

import cp.faults.FaultPoints;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;

/** A worker process: the plane's workflows and activities on TEMPORAL_ADDRESS's task queue. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = "Run a worker against TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE (SIGTERM shuts it down gracefully).")
final class WorkerCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Override
  public Integer call() throws Exception {
    var cfg = config();
    CliPlane.requireSharedService(cfg, "worker");
    FaultPoints.configure(env(), out());
    PlaneRuntime runtime = PlaneRuntime.open(cfg);
    TemporalConnection conn;
    try {
      conn = TemporalConnection.open(cfg);
    } catch (RuntimeException e) {
      runtime.close();
      throw e;
    }
    conn.ensureSearchAttributes();
    PlaneWorker worker = PlaneWorker.start(conn, runtime, "worker");
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      worker.close();
      conn.close();
      runtime.close();
      stop.countDown();
    }, "worker-shutdown"));
    out().println("worker polling task queue '" + cfg.worker().taskQueue() + "' at " + conn.target() + " (namespace "
        + conn.namespace() + ", provider " + runtime.provider().id() + ", sticky "
        + (conn.isTestServer() ? "off: embedded test server" : "on") + ", payload encryption "
        + cfg.payloadKey().map(k -> "on, key id " + k.id()).orElse("off") + ", CP_HOME " + cfg.home() + ")");
    out().flush();
    stop.await();
    return Cpctl.OK;
  }
}
