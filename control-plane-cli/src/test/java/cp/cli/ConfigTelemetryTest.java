package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 20 §3: {@code cpctl config} shows the telemetry, health and drain settings, header values masked. */
class ConfigTelemetryTest {
  @TempDir Path home;

  @Test
  void config_showsTracingMetricsHealthAndDrainSettings_neverAnOtlpHeaderValue() {
    Map<String, String> env = CliHarness.env(home);
    env.put("OTEL_TRACES_EXPORTER", "otlp");
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");
    env.put("OTEL_EXPORTER_OTLP_HEADERS", "x-honeycomb-team=hc-secret-value-1234,x-other=abc");
    env.put("OTEL_SERVICE_NAME", "cp-worker");
    env.put("CP_METRICS_PORT", "9464");
    env.put("CP_SHUTDOWN_GRACE_SECONDS", "90");
    CliHarness.Run r = CliHarness.run(env, "config");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    for (String line : new String[] {"tracing", "on (OTEL_TRACES_EXPORTER=otlp)", "http://collector:4318, http/protobuf",
        "x-honeycomb-team=[masked], x-other=[masked]", "cp-worker", "span content capture", "off",
        "http://127.0.0.1:9464 (/metrics, /healthz, /readyz; CP_METRICS_PORT)", "90 s (CP_SHUTDOWN_GRACE_SECONDS)",
        "readiness probe interval", "secret masking"}) {
      assertTrue(r.out().contains(line), line + " in:\n" + r.out());
    }
    assertFalse(r.out().contains("hc-secret-value-1234"), r.out());
  }

  @Test
  void config_saysTracingIsOff_andABadGraceIsRefusedNamingTheVariable() {
    CliHarness.Run off = CliHarness.run(CliHarness.env(home), "config");
    assertTrue(off.out().contains("off (set OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT)"), off.out());
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_SHUTDOWN_GRACE_SECONDS", "soon");
    CliHarness.Run bad = CliHarness.run(env, "config");
    assertEquals(Cpctl.BAD_INPUT, bad.code(), bad::describe);
    assertTrue(bad.err().contains("CP_SHUTDOWN_GRACE_SECONDS='soon'"), bad.err());
  }
}
