package cp.worker;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import cp.model.SessionInput;
import cp.model.TurnResult;
import cp.observability.Telemetry;
import cp.workflows.SessionWorkflow;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerBuilder;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.opentracingshim.OpenTracingShim;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowClientInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.opentracing.OpenTracingClientInterceptor;
import io.temporal.opentracing.OpenTracingOptions;
import io.temporal.opentracing.OpenTracingWorkerInterceptor;
import io.temporal.opentracing.SpanOperationType;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.unsafe.WorkflowUnsafe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Temporal side of {@link Telemetry} (issue 14): the SDK's OpenTracing interceptors over the
 * OpenTelemetry shim, so a trace follows a turn from the client's Update through SessionWorkflow,
 * TurnWorkflow and every activity in Temporal headers; the SDK's own metrics through its
 * Micrometer reporter; and the turn counter and latency histogram, recorded when the session's
 * {@code turn} Update returns.
 *
 * <p>The SDK's interceptors create no span for workflow-side calls (activities, child workflows)
 * while a workflow replays. The turn metrics are recorded only outside replay too, in workflow
 * time, so a workflow task replayed after a cache eviction counts nothing twice.
 */
public final class TemporalTelemetry {
  /** How often the SDK's metrics are pushed into the Micrometer registry (a scrape sees them this late at most). */
  static final com.uber.m3.util.Duration REPORT_EVERY = com.uber.m3.util.Duration.ofSeconds(1);

  private TemporalTelemetry() {}

  static OpenTracingOptions tracingOptions(Telemetry t) {
    OpenTelemetry otel = t.openTelemetry();
    TextMapPropagator propagator = otel.getPropagators().getTextMapPropagator();
    return OpenTracingOptions.newBuilder().setTracer(OpenTracingShim.createTracerShim(
        new ReplaySafeTracerProvider(otel.getTracerProvider()), propagator, propagator)).build();
  }

  /**
   * The SDK's spans that would repeat on replay, or flood a trace: {@code RunWorkflow} and
   * {@code HandleUpdate}/{@code HandleSignal} are started each time a workflow's code runs again
   * from its history (every workflow task after a cache eviction; each task with a cache of 0),
   * and {@code QueryWorkflow}/{@code HandleQuery} every time {@code cpctl chat} polls a turn's
   * progress. Their spans are not created; their context is their parent's, so what they start
   * (child workflows, activities: spans the SDK creates only outside replay) hangs off the span
   * that started the workflow or the Update.
   */
  static final List<String> PASS_THROUGH = List.of(SpanOperationType.RUN_WORKFLOW.getDefaultPrefix() + ":",
      SpanOperationType.HANDLE_UPDATE.getDefaultPrefix() + ":", SpanOperationType.HANDLE_SIGNAL.getDefaultPrefix() + ":",
      SpanOperationType.HANDLE_QUERY.getDefaultPrefix() + ":", SpanOperationType.QUERY_WORKFLOW.getDefaultPrefix() + ":");

  static boolean passesThrough(String spanName) {
    for (String prefix : PASS_THROUGH) {
      if (spanName.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** A tracer provider whose tracers create no span for {@link #PASS_THROUGH} names (see there). */
  static final class ReplaySafeTracerProvider implements TracerProvider {
    private final TracerProvider delegate;

    ReplaySafeTracerProvider(TracerProvider delegate) {
      this.delegate = delegate;
    }

    @Override
    public Tracer get(String name) {
      return wrap(delegate.get(name));
    }

    @Override
    public Tracer get(String name, String version) {
      return wrap(delegate.get(name, version));
    }

    @Override
    public TracerBuilder tracerBuilder(String name) {
      TracerBuilder b = delegate.tracerBuilder(name);
      return new TracerBuilder() {
        @Override
        public TracerBuilder setSchemaUrl(String url) {
          b.setSchemaUrl(url);
          return this;
        }

        @Override
        public TracerBuilder setInstrumentationVersion(String version) {
          b.setInstrumentationVersion(version);
          return this;
        }

        @Override
        public Tracer build() {
          return wrap(b.build());
        }
      };
    }

    private static Tracer wrap(Tracer tracer) {
      return name -> passesThrough(name) ? new PassThroughSpan() : tracer.spanBuilder(name);
    }
  }

  /** A "span" that is its parent's context: nothing is recorded or exported, and ending it ends nothing. */
  static final class PassThroughSpan implements SpanBuilder {
    private Context parent;

    @Override
    public SpanBuilder setParent(Context context) {
      parent = context;
      return this;
    }

    @Override
    public SpanBuilder setNoParent() {
      parent = Context.root();
      return this;
    }

    @Override
    public SpanBuilder addLink(SpanContext spanContext) {
      return this;
    }

    @Override
    public SpanBuilder addLink(SpanContext spanContext, Attributes attributes) {
      return this;
    }

    @Override
    public SpanBuilder setAttribute(String key, String value) {
      return this;
    }

    @Override
    public SpanBuilder setAttribute(String key, long value) {
      return this;
    }

    @Override
    public SpanBuilder setAttribute(String key, double value) {
      return this;
    }

    @Override
    public SpanBuilder setAttribute(String key, boolean value) {
      return this;
    }

    @Override
    public <T> SpanBuilder setAttribute(AttributeKey<T> key, T value) {
      return this;
    }

    @Override
    public SpanBuilder setSpanKind(SpanKind spanKind) {
      return this;
    }

    @Override
    public SpanBuilder setStartTimestamp(long startTimestamp, TimeUnit unit) {
      return this;
    }

    @Override
    public Span startSpan() {
      return Span.wrap(Span.fromContext(parent != null ? parent : Context.current()).getSpanContext());
    }
  }

  /** The client's interceptors: the tracing one when tracing is on, none otherwise. */
  public static WorkflowClientInterceptor[] clientInterceptors(Telemetry t) {
    return t.tracing() ? new WorkflowClientInterceptor[] {new OpenTracingClientInterceptor(tracingOptions(t))}
        : new WorkflowClientInterceptor[0];
  }

  /**
   * The worker's interceptors: tracing when on, then the turn observer ({@link TurnObserver}: the
   * invoke_agent span and the turn metrics) when anything is reported. The SDK wraps each
   * interceptor around the ones before it in the list, so the observer comes first: inside the
   * tracing interceptor, where the client's Update is the current span and becomes invoke_agent's
   * parent.
   */
  static List<WorkerInterceptor> workerInterceptors(Telemetry t) {
    List<WorkerInterceptor> out = new ArrayList<>();
    if (t.enabled()) {
      out.add(new TurnObserver(t));
    }
    if (t.tracing()) {
      out.add(new OpenTracingWorkerInterceptor(tracingOptions(t)));
    }
    return out;
  }

  /** The SDK's metrics scope into the telemetry's registry, or null without one (the SDK's no-op). */
  static Scope metricsScope(Telemetry t) {
    if (!t.metrics().enabled()) {
      return null;
    }
    return new RootScopeBuilder().reporter(new MicrometerClientStatsReporter(t.metrics().registry()))
        .reportEvery(REPORT_EVERY);
  }
}
