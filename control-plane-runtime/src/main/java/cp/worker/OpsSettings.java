package cp.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a long-running worker process is operated (issue 20 §3), from the environment: where its
 * metrics and health endpoints listen, how long it drains on SIGTERM, how often readiness is probed.
 *
 * @param metricsPort {@code CP_METRICS_PORT}: serve {@code /metrics}, {@code /healthz} and
 *     {@code /readyz} on this port (empty: no endpoint); {@code --metrics-port} wins over it
 * @param metricsBind {@code CP_METRICS_BIND}: the address they listen on; {@code --metrics-bind} wins
 * @param shutdownGrace {@code CP_SHUTDOWN_GRACE_SECONDS}: how long a SIGTERM lets running activities finish
 * @param readyInterval {@code CP_READY_INTERVAL_MS}: how often {@code /readyz}'s probes run
 */
public record OpsSettings(Optional<Integer> metricsPort, String metricsBind, Duration shutdownGrace,
    Duration readyInterval) {
  public static final String METRICS_PORT = "CP_METRICS_PORT";
  public static final String METRICS_BIND = "CP_METRICS_BIND";
  public static final String SHUTDOWN_GRACE = "CP_SHUTDOWN_GRACE_SECONDS";
  public static final String READY_INTERVAL = "CP_READY_INTERVAL_MS";
  /** This machine only: the endpoints have no authentication (a container sets 0.0.0.0). */
  public static final String DEFAULT_METRICS_BIND = "127.0.0.1";
  /**
   * A minute covers a long LLM completion without streaming (most finish well within it); an
   * orchestrator's own stop timeout must be longer (compose: {@code stop_grace_period}).
   */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(60);
  /**
   * Readiness turns within a few seconds of an outage while the probes (a gRPC health call and one
   * ledger check) stay a negligible load on Temporal and the ledger database.
   */
  public static final Duration DEFAULT_READY_INTERVAL = Duration.ofSeconds(2);
  /** Longest grace accepted: a day; anything longer is a typo, not a plan. */
  static final long MAX_GRACE_SECONDS = 86_400;

  public OpsSettings {
    metricsPort = metricsPort == null ? Optional.empty() : metricsPort;
  }

  public static OpsSettings defaults() {
    return fromEnv(Map.of());
  }

  /**
   * Reads the variables above.
   *
   * @throws ConfigException naming the variable when a value is not what it must be
   */
  public static OpsSettings fromEnv(Map<String, String> env) {
    Optional<Integer> port = Optional.ofNullable(blankToNull(env.get(METRICS_PORT)))
        .map(v -> (int) EnvNumbers.positive(METRICS_PORT, v, 65_535, "a TCP port (1-65535)"));
    String bind = Optional.ofNullable(blankToNull(env.get(METRICS_BIND))).orElse(DEFAULT_METRICS_BIND);
    String grace = blankToNull(env.get(SHUTDOWN_GRACE));
    Duration g = grace == null ? DEFAULT_SHUTDOWN_GRACE
        : Duration.ofSeconds(EnvNumbers.positive(SHUTDOWN_GRACE, grace, MAX_GRACE_SECONDS,
            "a whole number of seconds from 1 to " + MAX_GRACE_SECONDS));
    String ready = blankToNull(env.get(READY_INTERVAL));
    Duration r = ready == null ? DEFAULT_READY_INTERVAL
        : Duration.ofMillis(EnvNumbers.positive(READY_INTERVAL, ready, 3_600_000, "milliseconds from 1 to 3600000"));
    return new OpsSettings(port, bind, g, r);
  }

  /** Rows for {@code cpctl config}. */
  public List<String[]> describe() {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"metrics/health endpoint", metricsPort.map(p -> "http://" + metricsBind + ":" + p
        + " (/metrics, /healthz, /readyz; " + METRICS_PORT + ")").orElse("off (set " + METRICS_PORT
        + " or 'cpctl worker --metrics-port')")});
    rows.add(new String[] {"readiness probe interval", readyInterval.toMillis() + " ms (" + READY_INTERVAL + ")"});
    rows.add(new String[] {"shutdown grace (SIGTERM)", shutdownGrace.toSeconds() + " s (" + SHUTDOWN_GRACE + ")"});
    return rows;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
