package cp.cli;

import cp.faults.FaultHook;
import cp.faults.FaultPoints;
import cp.observability.SecretMasker;
import cp.worker.MetricsRegistries;
import cp.worker.ProcessServices;
import cp.observability.Telemetry;
import cp.worker.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import cp.worker.ControlPlaneWorker;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.ServiceWatch;
import cp.worker.TemporalConnection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import cp.worker.OpsSettings;
import cp.worker.Readiness;
import cp.worker.WorkerChecks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** A worker process: the plane's workflows and activities on TEMPORAL_ADDRESS's task queue. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = {"Run a worker against TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE.",
        "SIGTERM (or Ctrl-C) drains it: polling stops, running activities finish within CP_SHUTDOWN_GRACE_SECONDS"
            + " (default 60), then it exits 0; a second SIGTERM stops at once."})
final class WorkerCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  /** Where the endpoints listen unless --metrics-bind or CP_METRICS_BIND says otherwise: this machine only. */
  static final String DEFAULT_METRICS_BIND = OpsSettings.DEFAULT_METRICS_BIND;

  @Option(names = "--metrics-port", paramLabel = "P",
      description = "Serve Prometheus /metrics (temporal_*, gen_ai_*, jvm_*, process_* and cp_*), /healthz and /readyz"
          + " on http://BIND:P. Default: CP_METRICS_PORT, else none.")
  Integer metricsPort;

  @Option(names = "--metrics-bind", paramLabel = "ADDRESS",
      description = "Address the endpoints listen on. Default: CP_METRICS_BIND, else " + DEFAULT_METRICS_BIND + ".")
  String metricsBind;

  @Override
  public Integer call() throws Exception {
    var cfg = config();
    CliPlane.requireSharedService(cfg, "worker");
    OpsSettings ops = OpsSettings.fromEnv(env());
    InetSocketAddress metricsAddress = metricsAddress(ops);
    // The hook is passed to the activities and, through the ledger settings, to the ledger stores.
    FaultHook faults = FaultPoints.hookFor(env(), out(), err());
    SecretMasker masker = cfg.secretMasker();
    PrometheusMeterRegistry registry = metricsAddress == null ? null : MetricsRegistries.prometheus();
    Telemetry telemetry = Telemetry.fromEnv(env(), registry, masker);
    ProcessServices services = new ProcessServices(telemetry, faults, masker);
    AtomicReference<Readiness> readiness = new AtomicReference<>();
    MetricsServer metrics = null;
    PlaneRuntime runtime = null;
    ControlPlaneWorker built;
    TemporalConnection conn;
    try {
      if (metricsAddress != null) {
        try {
          metrics = MetricsServer.start(metricsAddress, registry, () -> readiness.get() == null
              ? new Readiness.Status(false, List.of("starting: the worker is not polling yet")) : readiness.get().status());
        } catch (UncheckedIOException e) {
          throw new IllegalArgumentException(portSource() + " " + metricsAddress.getPort() + ": " + e.getMessage()
              + " (is another process using it? pick another port)");
        }
      }
      // The same builder an application embedding a worker uses (issue 22); this command adds the
      // operator's endpoints, readiness and drain around the worker it builds.
      built = ControlPlaneWorker.builder().config(cfg).services(services).role("worker").build();
      runtime = built.runtime();
      conn = built.connection();
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
    MaskingEncoder.useEverywhere(runtime.masker()); // the one its ledgers use, with any secret registered later
    conn.ensureSearchAttributes();
    PlaneWorker worker = built.start().worker();
    ServiceWatch watch = ServiceWatch.start(conn, ServiceWatch.INTERVAL, new ServiceReport(conn, cfg.home()));
    PlaneRuntime opened = runtime;
    MetricsServer served = metrics;
    if (served != null) { // nobody can ask without the endpoint: no probes then
      readiness.set(Readiness.start(WorkerChecks.of(conn, worker, runtime.ledgers()), ops.readyInterval(),
          runtime.masker()::mask));
    }
    AtomicBoolean closed = new AtomicBoolean();
    Runnable closeAll = () -> {
      if (closed.compareAndSet(false, true)) {
        if (readiness.get() != null) {
          readiness.get().close();
        }
        watch.close();
        worker.close();
        conn.close();
        opened.close();
        if (served != null) {
          served.close();
        }
        telemetry.close();
      }
    };
    Optional<StopSignals> signals = StopSignals.install();
    // Other ways out of the JVM (SIGHUP, or a JVM that would not let us handle SIGTERM): close what is open.
    CountDownLatch hooked = closeOnShutdown("worker-shutdown", closeAll);
    if (served != null) {
      InetSocketAddress a = served.address();
      out().println("metrics on http://" + a.getHostString() + ":" + a.getPort() + MetricsServer.PATH + " (health "
          + MetricsServer.HEALTH + ", readiness " + MetricsServer.READY + ")");
    }
    out().println("worker polling task queue '" + cfg.worker().taskQueue() + "' at " + conn.target() + " (namespace "
        + conn.namespace() + ", provider " + opened.provider().id() + ", tracing "
        + (telemetry.tracing() ? "on" : "off") + ", sticky "
        + (conn.isTestServer() ? "off: embedded test server" : "on") + ", payload encryption "
        + cfg.payloadKey().map(k -> "on, key id " + k.id()).orElse("off") + ", CP_HOME " + cfg.home() + ", ledgers "
        + runtime.ledgers().store().describe() + ", drain grace " + ops.shutdownGrace().toSeconds() + " s)");
    out().flush();
    if (signals.isEmpty()) {
      hooked.await();
      return Cpctl.OK;
    }
    String signal = signals.get().awaitFirst();
    long start = System.nanoTime();
    if (readiness.get() != null) {
      readiness.get().draining();
    }
    PlaneWorker.DrainLog log = new PlaneWorker.DrainLog() {
      @Override
      public void line(String text) {
        out().println("cpctl worker: " + text);
        out().flush();
      }

      @Override
      public void warn(String text) {
        err().println("cpctl worker: " + text);
        err().flush();
      }
    };
    log.line(signal + " received: draining (up to " + ops.shutdownGrace().toSeconds() + " s, "
        + OpsSettings.SHUTDOWN_GRACE + "); a second signal stops at once");
    signals.get().onSecond(() -> worker.abandon("a second stop signal", log, start));
    PlaneWorker.Drained drained = worker.drain(ops.shutdownGrace(), log);
    closeAll.run();
    log.line(drained.complete() ? "stopped cleanly" : "stopped; " + drained.abandoned().size()
        + " activit" + (drained.abandoned().size() == 1 ? "y was" : "ies were") + " abandoned");
    return drained.complete() ? Cpctl.OK : Cpctl.FAILED;
  }

  /** Where the port came from, for messages. */
  private String portSource() {
    return metricsPort != null ? "--metrics-port" : OpsSettings.METRICS_PORT;
  }

  /** The address --metrics-port/CP_METRICS_PORT and --metrics-bind/CP_METRICS_BIND name, or null without a port. */
  private InetSocketAddress metricsAddress(OpsSettings ops) {
    Integer port = metricsPort != null ? metricsPort : ops.metricsPort().orElse(null);
    if (port == null) {
      return null;
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("--metrics-port " + port + " is not a TCP port (1-65535)");
    }
    String bindName = metricsBind != null ? metricsBind : ops.metricsBind();
    InetAddress bind;
    try {
      bind = InetAddress.getByName(bindName.trim());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException((metricsBind != null ? "--metrics-bind" : OpsSettings.METRICS_BIND) + " '"
          + bindName + "' is not an address of this machine: " + e.getMessage());
    }
    return new InetSocketAddress(bind, port);
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
