package cp.cli;

import cp.faults.FaultPoints;
import cp.observability.Telemetry;
import cp.worker.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.ServiceWatch;
import cp.worker.TemporalConnection;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** A worker process: the plane's workflows and activities on TEMPORAL_ADDRESS's task queue. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = "Run a worker against TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE (SIGTERM shuts it down gracefully).")
final class WorkerCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  /** Where /metrics listens unless --metrics-bind says otherwise: this machine only. */
  static final String DEFAULT_METRICS_BIND = "127.0.0.1";

  @Option(names = "--metrics-port", paramLabel = "P",
      description = "Serve Prometheus metrics (Temporal SDK's temporal_* and the plane's cp_*) on http://BIND:P/metrics.")
  Integer metricsPort;

  @Option(names = "--metrics-bind", paramLabel = "ADDRESS", defaultValue = DEFAULT_METRICS_BIND,
      description = "Address /metrics listens on (with --metrics-port). Default: ${DEFAULT-VALUE}.")
  String metricsBind;

  @Override
  public Integer call() throws Exception {
    var cfg = config();
    CliPlane.requireSharedService(cfg, "worker");
    InetSocketAddress metricsAddress = metricsAddress();
    FaultPoints.configure(env(), out(), err());
    PrometheusMeterRegistry registry = metricsAddress == null ? null
        : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Telemetry telemetry = Telemetry.install(Telemetry.fromEnv(env(), registry));
    MetricsServer metrics = null;
    PlaneRuntime runtime = null;
    TemporalConnection conn;
    try {
      if (metricsAddress != null) {
        try {
          metrics = MetricsServer.start(metricsAddress, registry);
        } catch (UncheckedIOException e) {
          throw new IllegalArgumentException("--metrics-port " + metricsPort + ": " + e.getMessage()
              + " (is another process using it? pick another port)");
        }
      }
      runtime = PlaneRuntime.open(cfg);
      conn = TemporalConnection.open(cfg);
    } catch (RuntimeException e) {
      if (runtime != null) {
        runtime.close();
      }
      if (metrics != null) {
        metrics.close();
      }
      telemetry.close();
      throw e;
    }
    conn.ensureSearchAttributes();
    PlaneWorker worker = PlaneWorker.start(conn, runtime, "worker");
    ServiceWatch watch = ServiceWatch.start(conn, ServiceWatch.INTERVAL, new ServiceReport(conn, cfg.home()));
    PlaneRuntime opened = runtime;
    MetricsServer served = metrics;
    CountDownLatch stop = closeOnShutdown("worker-shutdown", () -> {
      watch.close();
      worker.close();
      conn.close();
      opened.close();
      if (served != null) {
        served.close();
      }
      telemetry.close();
    });
    if (served != null) {
      InetSocketAddress a = served.address();
      out().println("metrics on http://" + a.getHostString() + ":" + a.getPort() + MetricsServer.PATH);
    }
    out().println("worker polling task queue '" + cfg.worker().taskQueue() + "' at " + conn.target() + " (namespace "
        + conn.namespace() + ", provider " + opened.provider().id() + ", tracing "
        + (telemetry.tracing() ? "on" : "off") + ", sticky "
        + (conn.isTestServer() ? "off: embedded test server" : "on") + ", payload encryption "
        + cfg.payloadKey().map(k -> "on, key id " + k.id()).orElse("off") + ", CP_HOME " + cfg.home() + ", ledgers "
        + runtime.ledgers().store().describe() + ")");
    out().flush();
    stop.await();
    return Cpctl.OK;
  }

  /** The address --metrics-port and --metrics-bind name, or null without --metrics-port. */
  private InetSocketAddress metricsAddress() {
    if (metricsPort == null) {
      return null;
    }
    if (metricsPort < 1 || metricsPort > 65535) {
      throw new IllegalArgumentException("--metrics-port " + metricsPort + " is not a TCP port (1-65535)");
    }
    InetAddress bind;
    try {
      bind = InetAddress.getByName(metricsBind.trim());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("--metrics-bind '" + metricsBind + "' is not an address of this machine: "
          + e.getMessage());
    }
    return new InetSocketAddress(bind, metricsPort);
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
