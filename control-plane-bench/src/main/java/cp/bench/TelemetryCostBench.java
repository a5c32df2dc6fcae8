package cp.bench;

import com.sun.net.httpserver.HttpServer;
import cp.observability.Telemetry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * P1 with observability (issue 14): turn latency with tracing and metrics on ÷ off. The "on" plane
 * is opened with the telemetry a production worker would have: the OpenTelemetry SDK from
 * {@code OTEL_*} variables, exporting OTLP over HTTP (batched, as autoconfigured) to a local sink
 * that answers like a collector, and a Prometheus registry scraped once a round; the "off" plane
 * is P1's own. Rounds interleave; the traced plane is given its telemetry, and the ledger's (which the
 * stores still read process-wide) is switched with each side.
 */
final class TelemetryCostBench {
  /** Tracing and metrics may cost at most 2 % of a turn (issue 14). */
  static final double P50_TARGET = 1.02;

  private final OrchestratedPlane off;
  private final Map<String, String> onEnv;
  private final BenchOptions o;

  TelemetryCostBench(OrchestratedPlane off, Map<String, String> onEnv, BenchOptions o) {
    this.off = off;
    this.onEnv = onEnv;
    this.o = o;
  }

  List<Measure> run() throws Exception {
    AtomicLong exported = new AtomicLong();
    HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    collector.createContext("/", exchange -> {
      try (exchange; InputStream in = exchange.getRequestBody()) {
        exported.addAndGet(in.readAllBytes().length);
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(200, -1);
      }
    });
    collector.start();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    java.util.HashMap<String, String> env = new java.util.HashMap<>(onEnv);
    env.put("OTEL_TRACES_EXPORTER", "otlp");
    env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort());
    env.put("OTEL_SERVICE_NAME", "cp-bench");
    Telemetry on = Telemetry.fromEnv(env, registry);
    OrchestratedPlane traced = OrchestratedPlane.open(env, on);
    AtomicLong scraped = new AtomicLong();
    try (traced) {
      {
        for (int done = 0; done < o.warmupTurns(); done += TurnLatencyBench.WARMUP_SESSION_TURNS) {
          String sid = traced.client.startSession(TurnLatencyBench.AGENT);
          for (int t = 1; t <= Math.min(TurnLatencyBench.WARMUP_SESSION_TURNS, o.warmupTurns() - done); t++) {
            traced.timedTurn(sid, TurnTexts.text(t));
          }
          traced.client.end(sid);
        }
      }
      ProcessCpu cpu = new ProcessCpu(2);
      Interleaved.Result r = Interleaved.run(o.rounds(), round -> cpu.measure(0, o.turnsPerRound(), () -> {
        List<Double> ms = rounds(traced);
        scraped.addAndGet(registry.scrape().length());
        return ms;
      }), round -> cpu.measure(1, o.turnsPerRound(), () -> rounds(off)));
      double p50 = r.medianRatio();
      String detail = String.format(Locale.ROOT, "L=%d ms, %d rounds x %d turns a side; on p50 %.1f ms / p99 %.1f ms,"
          + " off p50 %.1f ms / p99 %.1f ms; on = OTLP/HTTP traces to a local sink (%d KiB received) + Prometheus"
          + " registry (scraped each round)", o.latency().toMillis(), o.rounds(), o.turnsPerRound(), r.medianA(),
          r.pooledA(99), r.medianB(), r.pooledB(99), exported.get() / 1024);
      return List.of(Measure.target(Measure.Id.P1, "turn latency p50, tracing and metrics on ÷ off",
          Measure.ratio(p50), "≤ " + P50_TARGET, p50 <= P50_TARGET, detail),
          Measure.info(Measure.Id.P1, "CPU per turn (this process), tracing and metrics on vs off",
              String.format(Locale.ROOT, "%.0f ms vs %.0f ms", cpu.median(0), cpu.median(1)),
              "process CPU time over each round ÷ its turns, median of rounds (includes the exporter's thread and"
                  + " the local sink); unlike latency, not inflated by other processes on the machine"));
    } finally {
      on.close();
      collector.stop(0);
    }
  }

  private List<Double> rounds(OrchestratedPlane plane) {
    String sid = plane.client.startSession(TurnLatencyBench.AGENT);
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.turnsPerRound(); t++) {
      ms.add(plane.timedTurn(sid, TurnTexts.text(t)));
    }
    plane.client.end(sid);
    return ms;
  }

}
