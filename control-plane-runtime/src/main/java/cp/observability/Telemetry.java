package cp.observability;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What this process reports: its OpenTelemetry (traces) and its Micrometer registry (metrics).
 *
 * <p>One per process, {@link #install installed} by the command that starts a worker or a client
 * ({@code cpctl worker}, {@code cpctl chat}) and read where the work happens (the gateway, the
 * activities, the ledger) through {@link #current()}; until then, and after {@link #close()}, it
 * is {@link #NOOP}: OpenTelemetry's no-op API and no registry, so every span and meter call costs
 * a branch.
 *
 * <p>Tracing is configured only by the OpenTelemetry SDK's standard environment variables
 * (autoconfigure: {@code OTEL_TRACES_EXPORTER}, {@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_SERVICE_NAME}, ...). It is on when {@code OTEL_TRACES_EXPORTER} names an exporter
 * other than {@code none}, or an OTLP endpoint is set ({@code OTEL_EXPORTER_OTLP_ENDPOINT} or
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}), and {@code OTEL_SDK_DISABLED} is not {@code true}.
 * Otherwise no SDK is built at all. Our metrics go through Micrometer, so the SDK's own metric
 * and log exporters default to {@code none} here (an explicit {@code OTEL_METRICS_EXPORTER} or
 * {@code OTEL_LOGS_EXPORTER} still wins).
 */
public final class Telemetry implements AutoCloseable {
  /** Opt-in (GenAI conventions): prompt and response text on the chat spans. Off by default. */
  public static final String CAPTURE_CONTENT = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";
  /** The instrumentation scope of our spans. */
  public static final String SCOPE = "cp.control-plane";

  public static final Telemetry NOOP = new Telemetry(OpenTelemetry.noop(), null, null, false, false);

  private static volatile Telemetry current = NOOP;

  private final OpenTelemetry otel;
  private final OpenTelemetrySdk sdk;
  private final Tracer tracer;
  private final boolean tracing;
  private final boolean captureContent;
  private final PlaneMetrics metrics;

  private Telemetry(OpenTelemetry otel, OpenTelemetrySdk sdk, MeterRegistry registry, boolean tracing,
      boolean captureContent) {
    this.otel = otel;
    this.sdk = sdk;
    this.tracer = otel.getTracer(SCOPE);
    this.tracing = tracing;
    this.captureContent = captureContent;
    this.metrics = new PlaneMetrics(registry);
  }

  /**
   * Telemetry for the variables in {@code env}: tracing as the OTEL_* variables say (see the class
   * comment), metrics into {@code registry} (null: none).
   *
   * @throws IllegalArgumentException naming the variable when the SDK refuses its configuration
   */
  public static Telemetry fromEnv(Map<String, String> env, MeterRegistry registry) {
    boolean capture = "true".equalsIgnoreCase(env.getOrDefault(CAPTURE_CONTENT, "").trim());
    if (!tracingRequested(env)) {
      return registry == null ? NOOP : new Telemetry(OpenTelemetry.noop(), null, registry, false, false);
    }
    Map<String, String> props = new HashMap<>();
    props.put("otel.metrics.exporter", "none");
    props.put("otel.logs.exporter", "none");
    env.forEach((k, v) -> {
      if (k.startsWith("OTEL_")) {
        props.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
      }
    });
    OpenTelemetrySdk sdk;
    try {
      sdk = AutoConfiguredOpenTelemetrySdk.builder().addPropertiesSupplier(() -> props).disableShutdownHook()
          .build().getOpenTelemetrySdk();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("OTEL_* variables: the OpenTelemetry SDK refused them: " + e.getMessage(), e);
    }
    return new Telemetry(sdk, sdk, registry, true, capture);
  }

  /** Telemetry over an OpenTelemetry the caller built (tests: the SDK with an in-memory exporter). */
  public static Telemetry of(OpenTelemetry otel, MeterRegistry registry, boolean captureContent) {
    return new Telemetry(Objects.requireNonNull(otel, "otel"), null, registry, true, captureContent);
  }

  /** True when {@code env} asks for traces (see the class comment). */
  static boolean tracingRequested(Map<String, String> env) {
    if ("true".equalsIgnoreCase(env.getOrDefault("OTEL_SDK_DISABLED", "").trim())) {
      return false;
    }
    String exporter = env.getOrDefault("OTEL_TRACES_EXPORTER", "").trim();
    if (!exporter.isEmpty()) {
      return !exporter.equalsIgnoreCase("none");
    }
    return !env.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "").isBlank()
        || !env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").isBlank();
  }

  /** The process's telemetry ({@link #NOOP} until one is installed). */
  public static Telemetry current() {
    return current;
  }

  /** Makes {@code t} the process's telemetry; returns it. */
  public static Telemetry install(Telemetry t) {
    current = Objects.requireNonNull(t, "telemetry");
    return t;
  }

  public OpenTelemetry openTelemetry() {
    return otel;
  }

  public Tracer tracer() {
    return tracer;
  }

  /** Whether spans are recorded (an SDK is configured); false means the no-op API. */
  public boolean tracing() {
    return tracing;
  }

  /** Whether anything is reported: spans or metrics (false for {@link #NOOP}). */
  public boolean enabled() {
    return tracing || metrics.enabled();
  }

  /** Whether chat spans may carry prompt and response text ({@link #CAPTURE_CONTENT}). */
  public boolean captureContent() {
    return captureContent;
  }

  public PlaneMetrics metrics() {
    return metrics;
  }

  /** Flushes and stops the SDK it built (if any); uninstalls itself if it is the current one. */
  @Override
  public void close() {
    if (current == this) {
      current = NOOP;
    }
    if (sdk != null) {
      sdk.shutdown().join(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
