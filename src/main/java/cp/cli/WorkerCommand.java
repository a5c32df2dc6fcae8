package cp.cli;

import cp.faults.FaultPoints;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.ServiceWatch;
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
    ServiceWatch watch = ServiceWatch.start(conn, ServiceWatch.INTERVAL, new ServiceReport(conn, cfg.home()));
    CountDownLatch stop = closeOnShutdown("worker-shutdown", () -> {
      watch.close();
      worker.close();
      conn.close();
      runtime.close();
    });
    out().println("worker polling task queue '" + cfg.worker().taskQueue() + "' at " + conn.target() + " (namespace "
        + conn.namespace() + ", provider " + runtime.provider().id() + ", sticky "
        + (conn.isTestServer() ? "off: embedded test server" : "on") + ", payload encryption "
        + cfg.payloadKey().map(k -> "on, key id " + k.id()).orElse("off") + ", CP_HOME " + cfg.home() + ", ledgers "
        + runtime.ledgers().store().describe() + ")");
    out().flush();
    stop.await();
    return Cpctl.OK;
  }

  /** One line per change of the service: lost on stderr, back on stdout. */
  private final class ServiceReport implements ServiceWatch.Listener {
    private final TemporalConnection conn;
    private final java.nio.file.Path home;

    ServiceReport(TemporalConnection conn, java.nio.file.Path home) {
      this.conn = conn;
      this.home = home;
    }

    @Override
    public void lost(String reason) {
      err().println("cpctl worker: lost the Temporal service at " + conn.target() + " (" + reason
          + "); still running, work resumes when it answers again");
      err().flush();
    }

    @Override
    public void back() {
      try {
        conn.ensureSearchAttributes();
      } catch (RuntimeException e) {
        // A service that answers health checks but not yet the operator API; the next start fixes it.
      }
      out().println("cpctl worker: the Temporal service at " + conn.target() + " answers again; if it was restarted,"
          + " the sessions it held are gone (cpctl dev-server keeps them in memory only) and their turns cannot"
          + " resume; the ledgers under " + home + " keep their record ('cpctl ledger verify')");
      out().flush();
    }
  }
}
