package cp.observability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.OpenTelemetry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 14: tracing only when an OTEL_* variable asks for it; otherwise no SDK at all. */
class TelemetryTest {
  @Test
  void withoutAnExporterOrEndpoint_noSdkIsBuilt() {
    for (Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("OTEL_SERVICE_NAME", "cp"),
        Map.of("OTEL_TRACES_EXPORTER", "none"), Map.of("OTEL_TRACES_EXPORTER", "otlp", "OTEL_SDK_DISABLED", "true"))) {
      Telemetry t = Telemetry.fromEnv(env, null);
      assertSame(Telemetry.NOOP, t, env.toString());
      assertFalse(t.tracing());
      assertSame(OpenTelemetry.noop(), t.openTelemetry());
      assertFalse(t.metrics().enabled());
    }
  }

  @Test
  void anExporterOrAnEndpoint_turnsTracingOn() {
    for (Map<String, String> env : java.util.List.of(Map.of("OTEL_TRACES_EXPORTER", "logging-otlp"),
        Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"))) {
      try (Telemetry t = Telemetry.fromEnv(env, null)) {
        assertTrue(t.tracing(), env.toString());
        assertTrue(t.tracer().spanBuilder("x").startSpan().isRecording());
      }
    }
  }

  @Test
  void anExporterTheSdkDoesNotKnow_isRefusedNamingTheVariables() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Telemetry.fromEnv(Map.of("OTEL_TRACES_EXPORTER", "carrier-pigeon"), null));
    assertTrue(e.getMessage().startsWith("OTEL_* variables"), e.getMessage());
    assertTrue(e.getMessage().contains("carrier-pigeon"), e.getMessage());
  }
}
