package cp.worker;

import cp.model.ApprovalResult;
import cp.model.SessionInput;
import cp.model.TurnInput;
import cp.model.TurnResult;
import cp.observability.PlaneSpans;
import cp.observability.Telemetry;
import cp.workflows.SessionWorkflow;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.unsafe.WorkflowUnsafe;
import java.util.concurrent.TimeUnit;

/**
 * What the worker observes of each turn from the workflows' side (issue 14, issue 20 §3), without
 * touching workflow code:
 *
 * <ul>
 *   <li>on SessionWorkflow's {@code turn} Update: the GenAI {@code invoke_agent {agent class}} span
 *       (current while the Update runs, so the turn's child workflow and activities hang under it)
 *       and the {@code cp.turns} counter and {@code cp.turn.latency} histogram;
 *   <li>on TurnWorkflow: the time it waited for approvals (from the {@code ApprovalRequest}
 *       activity's completion to the {@code ApprovalDecided} call) as {@code cp.approval.wait}, and
 *       the turn's own time without those waits as {@code cp.turn.work.latency}.
 * </ul>
 * Everything is measured in workflow time and recorded only outside replay, so a workflow task
 * replayed after a cache eviction counts nothing twice and emits no span. An Update whose workflow
 * is evicted while it runs ends its span then, marked {@link #EVICTED}: the replayed run that
 * finishes the turn cannot reopen it.
 */
final class TurnObserver extends WorkerInterceptorBase {
  static final String APPROVAL_REQUEST = "ApprovalRequest";
  static final String APPROVAL_DECIDED = "ApprovalDecided";
  static final AttributeKey<Boolean> EVICTED = AttributeKey.booleanKey("cp.evicted");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("cp.outcome");

  private final Telemetry telemetry;

  TurnObserver(Telemetry telemetry) {
    this.telemetry = telemetry;
  }

  @Override
  public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
    return new Inbound(next);
  }

  private final class Inbound extends WorkflowInboundCallsInterceptorBase {
    private String agentClass;
    /** Issue 23: the session's tenant, for the invoke_agent span. */
    private String tenant;
    private long approvalRequestedAt;
    private long approvalWaitMillis;

    Inbound(WorkflowInboundCallsInterceptor next) {
      super(next);
    }

    @Override
    public void init(WorkflowOutboundCallsInterceptor outbound) {
      super.init(new WorkflowOutboundCallsInterceptorBase(outbound) {
        @Override
        public <R> LocalActivityOutput<R> executeLocalActivity(LocalActivityInput<R> input) {
          approvalStep(input.getActivityName(), input.getArgs());
          LocalActivityOutput<R> out = super.executeLocalActivity(input);
          if (APPROVAL_REQUEST.equals(input.getActivityName())) {
            out.getResult().thenApply(r -> approvalRequestedAt = Workflow.currentTimeMillis());
          }
          return out;
        }

        @Override
        public <R> ActivityOutput<R> executeActivity(ActivityInput<R> input) {
          approvalStep(input.getActivityName(), input.getArgs());
          ActivityOutput<R> out = super.executeActivity(input);
          if (APPROVAL_REQUEST.equals(input.getActivityName())) {
            out.getResult().thenApply(r -> approvalRequestedAt = Workflow.currentTimeMillis());
          }
          return out;
        }
      });
    }

    /** At the decision's record: the wait since the request ended is over. */
    private void approvalStep(String activity, Object[] args) {
      if (!APPROVAL_DECIDED.equals(activity) || approvalRequestedAt == 0) {
        return;
      }
      long waited = Workflow.currentTimeMillis() - approvalRequestedAt;
      approvalRequestedAt = 0;
      approvalWaitMillis += waited;
      if (!WorkflowUnsafe.isReplaying()) {
        String decision = args != null && args.length > 0 && args[0] instanceof ApprovalResult r ? r.decision() : null;
        telemetry.metrics().approvalWait(agentClass, decision, TimeUnit.MILLISECONDS.toNanos(waited));
      }
    }

    @Override
    public WorkflowOutput execute(WorkflowInput input) {
      Object[] args = input.getArguments();
      if (args != null && args.length > 0 && args[0] instanceof SessionInput s) {
        agentClass = s.agentClass();
        tenant = s.tenantOrDefault();
        return super.execute(input);
      }
      if (args == null || args.length == 0 || !(args[0] instanceof TurnInput t)) {
        return super.execute(input);
      }
      agentClass = t.profile().agentClass();
      long started = Workflow.currentTimeMillis();
      WorkflowOutput out = super.execute(input);
      if (!WorkflowUnsafe.isReplaying() && out.getResult() instanceof TurnResult r) {
        long work = Workflow.currentTimeMillis() - started - approvalWaitMillis;
        telemetry.metrics().turnWork(agentClass, r.outcome(), TimeUnit.MILLISECONDS.toNanos(Math.max(0, work)));
      }
      return out;
    }

    @Override
    public UpdateOutput executeUpdate(UpdateInput input) {
      if (!SessionWorkflow.TURN.equals(input.getUpdateName())) {
        return super.executeUpdate(input);
      }
      if (agentClass == null) {
        // An Update delivered with the start (update-with-start) runs before the workflow method has
        // been given its input: the agent class then comes from the search attribute its start set.
        agentClass = Workflow.getTypedSearchAttributes().get(cp.workflows.CpSearchAttributes.AGENT_CLASS);
      }
      if (tenant == null) {
        // Likewise the tenant (a session that set no CpTenant has none to show).
        tenant = Workflow.getTypedSearchAttributes().get(cp.workflows.CpSearchAttributes.TENANT);
      }
      long started = Workflow.currentTimeMillis();
      Span span = WorkflowUnsafe.isReplaying() ? Span.getInvalid() : agentSpan();
      boolean finished = false;
      try (io.opentelemetry.context.Scope current = span.makeCurrent()) {
        UpdateOutput out = super.executeUpdate(input);
        finished = true;
        if (!WorkflowUnsafe.isReplaying() && out.getResult() instanceof TurnResult r) {
          telemetry.metrics().turn(agentClass, r.outcome(),
              TimeUnit.MILLISECONDS.toNanos(Workflow.currentTimeMillis() - started));
          if (span.isRecording()) {
            span.setAttribute(PlaneSpans.TURN, (long) r.turn());
            span.setAttribute(OUTCOME, r.outcome());
            if (r.errorCode() != null) {
              PlaneSpans.failed(span, r.errorCode());
            }
          }
        }
        return out;
      } finally {
        if (span.isRecording()) {
          nameLateArrivals(span);
        }
        if (!finished && span.isRecording()) {
          // The workflow thread is being destroyed (an eviction), or the Update failed: its end is not seen here.
          span.setAttribute(EVICTED, true);
        }
        span.end();
      }
    }

    /**
     * A turn Update that reached the session in its first workflow task runs before the workflow
     * method has its input, and the search attributes are not set yet either; by the turn's end the
     * session's start has run, so the span names what is known then (the same values again otherwise).
     */
    private void nameLateArrivals(Span span) {
      if (tenant != null) {
        span.setAttribute(PlaneSpans.TENANT, tenant);
      }
      if (agentClass != null) {
        span.updateName(PlaneSpans.INVOKE_AGENT + " " + agentClass);
        span.setAttribute(PlaneSpans.AGENT_NAME, agentClass);
        span.setAttribute(PlaneSpans.AGENT_CLASS, agentClass);
      }
    }

    private Span agentSpan() {
      Span span = telemetry.startSpan(PlaneSpans.INVOKE_AGENT + (agentClass == null ? "" : " " + agentClass),
          SpanKind.INTERNAL);
      if (span.isRecording()) {
        String sessionId = Workflow.getInfo().getWorkflowId();
        span.setAttribute(PlaneSpans.OPERATION, PlaneSpans.INVOKE_AGENT);
        if (agentClass != null) {
          span.setAttribute(PlaneSpans.AGENT_NAME, agentClass);
          span.setAttribute(PlaneSpans.AGENT_CLASS, agentClass);
        }
        PlaneSpans.ids(span, sessionId, 0, null);
        if (tenant != null) {
          span.setAttribute(PlaneSpans.TENANT, tenant);
        }
      }
      return span;
    }
  }
}
