package cp.observability;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What this process reports: its OpenTelemetry (traces) and its Micrometer registry (metrics).
 *
 * <p>One per process, made by the command that starts a worker or a client ({@code cpctl worker},
 * {@code cpctl chat}) and passed to what does the work (the Temporal connection and its worker
 * interceptors, the gateway, the activities) as a collaborator (issue 21: no process-wide state).
 * Where none is passed, {@link #NOOP}: OpenTelemetry's no-op API and no registry, so every span and
 * meter call costs a branch.
 *
 * <p>Spans leave the process only through {@link SanitizingSpanExporter}: no error text, secrets
 * masked by the process's {@link SecretMasker}, whoever made the span.
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

  /**
   * Only for the ledger stores, which still read the process's telemetry here until they take it
   * through their options (the ledger helper's {@code LedgerHooks}); nothing else may read it.
   */

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
    return fromEnv(env, registry, SecretMasker.fromEnv(env));
  }

  /**
   * {@link #fromEnv(Map, MeterRegistry)} whose spans are sanitized with {@code masker} (the
   * process's own, with every secret it registered) before any exporter sees them.
   */
  public static Telemetry fromEnv(Map<String, String> env, MeterRegistry registry, SecretMasker masker) {
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
          .addSpanExporterCustomizer((exporter, config) -> new SanitizingSpanExporter(exporter, masker))
          .build().getOpenTelemetrySdk();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("OTEL_* variables: the OpenTelemetry SDK refused them: " + e.getMessage(), e);
    }
    return new Telemetry(sdk, sdk, registry, true, capture);
  }

  /**
   * Telemetry whose spans go, sanitized as in production ({@link SanitizingSpanExporter} with
   * {@code masker}), to {@code exporter} as each span ends (tests: an in-memory exporter).
   */
  public static Telemetry exportingTo(SpanExporter exporter, MeterRegistry registry, boolean captureContent,
      SecretMasker masker) {
    SdkTracerProvider tracing = SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(new SanitizingSpanExporter(exporter, masker))).build();
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracing)
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
    return new Telemetry(sdk, sdk, registry, true, captureContent);
  }

  /** Telemetry over an OpenTelemetry the caller built, used as it is (no sanitizing: the caller's exporters see everything). */
  public static Telemetry of(OpenTelemetry otel, MeterRegistry registry, boolean captureContent) {
    return new Telemetry(Objects.requireNonNull(otel, "otel"), null, registry, true, captureContent);
  }

  /**
   * The telemetry settings {@code env} makes, for {@code cpctl config}: whether tracing is on and
   * where spans go, the resource's service name, sampling, content capture. Header values
   * ({@code OTEL_EXPORTER_OTLP_HEADERS}, often an API key) are never shown, only their names.
   */
  public static List<String[]> describe(Map<String, String> env) {
    List<String[]> rows = new ArrayList<>();
    boolean on = tracingRequested(env);
    String exporter = env.getOrDefault("OTEL_TRACES_EXPORTER", "").isBlank() ? (on ? "otlp" : "none")
        : env.get("OTEL_TRACES_EXPORTER").trim();
    rows.add(new String[] {"tracing", on ? "on (OTEL_TRACES_EXPORTER=" + exporter + ")"
        : "off (set OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT)"
            + ("true".equalsIgnoreCase(env.getOrDefault("OTEL_SDK_DISABLED", "").trim()) ? "; OTEL_SDK_DISABLED=true" : "")});
    if (on) {
      String endpoint = firstSet(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT");
      if (exporter.contains("otlp") && !exporter.startsWith("logging")) {
        rows.add(new String[] {"OTLP endpoint", (endpoint == null ? "http://localhost:4318 (default)" : endpoint) + ", "
            + env.getOrDefault("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")});
      }
      String headers = firstSet(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS");
      if (headers != null) {
        List<String> names = new ArrayList<>();
        for (String h : headers.split(",")) {
          names.add(h.split("=", 2)[0].trim() + "=" + "[masked]");
        }
        rows.add(new String[] {"OTLP headers", String.join(", ", names)});
      }
      rows.add(new String[] {"service name", env.getOrDefault("OTEL_SERVICE_NAME", "(SDK default: unknown_service:java)")});
      rows.add(new String[] {"sampler", env.getOrDefault("OTEL_TRACES_SAMPLER", "parentbased_always_on (default)")
          + (env.containsKey("OTEL_TRACES_SAMPLER_ARG") ? " " + env.get("OTEL_TRACES_SAMPLER_ARG") : "")});
    }
    rows.add(new String[] {"span content capture", "true".equalsIgnoreCase(env.getOrDefault(CAPTURE_CONTENT, "").trim())
        ? "on: prompts and replies on chat spans (" + CAPTURE_CONTENT + ")" : "off (" + CAPTURE_CONTENT + ")"});
    return rows;
  }

  private static String firstSet(Map<String, String> env, String... names) {
    for (String n : names) {
      String v = env.get(n);
      if (v != null && !v.isBlank()) {
        return v.trim();
      }
    }
    return null;
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

  /** A span named {@code name} started now under the current context, or the no-op span when tracing is off. */
  public Span startSpan(String name, SpanKind kind) {
    return tracing ? tracer.spanBuilder(name).setSpanKind(kind).startSpan() : Span.getInvalid();
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

  /** Flushes and stops the SDK it built (if any). */
  @Override
  public void close() {
    if (sdk != null) {
      sdk.shutdown().join(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
