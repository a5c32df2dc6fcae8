package cp.worker;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import cp.model.SessionInput;
import cp.model.TurnResult;
import cp.observability.Telemetry;
import cp.workflows.SessionWorkflow;
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
    return OpenTracingOptions.newBuilder().setTracer(OpenTracingShim.createTracerShim(t.openTelemetry())).build();
  }

  /** The client's interceptors: the tracing one when tracing is on, none otherwise. */
  public static WorkflowClientInterceptor[] clientInterceptors(Telemetry t) {
    return t.tracing() ? new WorkflowClientInterceptor[] {new OpenTracingClientInterceptor(tracingOptions(t))}
        : new WorkflowClientInterceptor[0];
  }

  /** The worker's interceptors: tracing when on, turn metrics when a registry is. */
  static List<WorkerInterceptor> workerInterceptors(Telemetry t) {
    List<WorkerInterceptor> out = new ArrayList<>();
    if (t.tracing()) {
      out.add(new OpenTracingWorkerInterceptor(tracingOptions(t)));
    }
    if (t.metrics().enabled()) {
      out.add(new TurnMetrics(t));
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

  /** Counts each answered turn by agent class and outcome, with its latency, when SessionWorkflow's Update returns. */
  static final class TurnMetrics extends WorkerInterceptorBase {
    private final Telemetry telemetry;

    TurnMetrics(Telemetry telemetry) {
      this.telemetry = telemetry;
    }

    @Override
    public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
      return new WorkflowInboundCallsInterceptorBase(next) {
        private String agentClass;

        @Override
        public WorkflowOutput execute(WorkflowInput input) {
          Object[] args = input.getArguments();
          if (args != null && args.length > 0 && args[0] instanceof SessionInput s) {
            agentClass = s.agentClass();
          }
          return super.execute(input);
        }

        @Override
        public UpdateOutput executeUpdate(UpdateInput input) {
          if (!SessionWorkflow.TURN.equals(input.getUpdateName())) {
            return super.executeUpdate(input);
          }
          long started = Workflow.currentTimeMillis();
          UpdateOutput out = super.executeUpdate(input);
          if (!WorkflowUnsafe.isReplaying() && out.getResult() instanceof TurnResult r) {
            telemetry.metrics().turn(agentClass, r.outcome(),
                TimeUnit.MILLISECONDS.toNanos(Workflow.currentTimeMillis() - started));
          }
          return out;
        }
      };
    }
  }
}
