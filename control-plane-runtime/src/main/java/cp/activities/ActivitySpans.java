package cp.activities;

import cp.ledger.LedgerStream;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolUse;
import cp.model.WorkOrderIds;
import cp.observability.PlaneSpans;
import cp.observability.Telemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import java.util.Optional;

/**
 * The spans the activities add to a turn's trace (issue 14): {@code execute_tool {name}},
 * {@code work_order {type}} (the completion step that records the work order's outcome),
 * {@code attention} and {@code quality_gate} (from the activity that writes the gate's record: the
 * gate itself is workflow code). Each runs once per activity attempt that did the work, so a
 * replayed workflow emits none of them again, and each points at the ledger entry it wrote.
 */
final class ActivitySpans {
  static final AttributeKey<String> WO_TYPE = AttributeKey.stringKey("cp.wo_type");
  static final AttributeKey<Long> FRAGMENTS = AttributeKey.longKey("cp.attention.fragments");
  static final AttributeKey<Long> CONTEXT_TOKENS = AttributeKey.longKey("cp.attention.tokens");
  static final AttributeKey<Boolean> PARTIAL = AttributeKey.booleanKey("cp.attention.partial");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("cp.gate.attempt");
  /**
   * A work order's tokens, summed over its LLM rounds. Not {@code gen_ai.usage.*}: the rounds' chat
   * spans carry those, and a backend summing them over a trace must count each token once.
   */
  static final AttributeKey<Long> WO_INPUT_TOKENS = AttributeKey.longKey("cp.wo.input_tokens");
  static final AttributeKey<Long> WO_OUTPUT_TOKENS = AttributeKey.longKey("cp.wo.output_tokens");

  private ActivitySpans() {}

  /**
   * The {@code execute_tool} span of a tool call. A name the agent does not declare (a model may
   * invent any) is not a tool: the span is then plain {@code execute_tool} without
   * {@code gen_ai.tool.name}, so a tool name's cardinality stays the agents' tools.
   */
  static Span tool(Telemetry telemetry, ToolCallRequest r, ToolUse use, String origin) {
    boolean known = r.allowedTools().contains(use.name());
    Span span = PlaneSpans.start(telemetry, known ? PlaneSpans.EXECUTE_TOOL + " " + use.name() : PlaneSpans.EXECUTE_TOOL,
        SpanKind.INTERNAL);
    if (span.isRecording()) {
      span.setAttribute(PlaneSpans.OPERATION, PlaneSpans.EXECUTE_TOOL);
      if (known) {
        span.setAttribute(PlaneSpans.TOOL_NAME, use.name());
      }
      span.setAttribute(PlaneSpans.TOOL_TYPE, "function");
      span.setAttribute(PlaneSpans.TOOL_ORIGIN, origin);
      if (use.id() != null) {
        span.setAttribute(PlaneSpans.TOOL_CALL_ID, use.id());
      }
      span.setAttribute(PlaneSpans.AGENT_CLASS, r.agentClass());
      PlaneSpans.ids(span, r.sessionId(), WorkOrderIds.turnOf(r.woId()), r.woId());
    }
    return span;
  }

  static void toolDone(Span span, ToolCallResult done, LedgerStream ho1) {
    if (!span.isRecording()) {
      return;
    }
    span.setAttribute(PlaneSpans.STATUS, done.status());
    if (done.errorCode() != null) {
      PlaneSpans.failed(span, done.errorCode());
    }
    PlaneSpans.ledger(span, "ho1", done.entryId(), () -> hashOf(ho1, done.entryId()));
  }

  static Span workOrder(Telemetry telemetry, String woId, String sessionId, String woType) {
    Span span = PlaneSpans.start(telemetry, PlaneSpans.WORK_ORDER + " " + woType, SpanKind.INTERNAL);
    if (span.isRecording()) {
      span.setAttribute(WO_TYPE, woType);
      PlaneSpans.ids(span, sessionId, WorkOrderIds.turnOf(woId), woId);
    }
    return span;
  }

  static Span attention(Telemetry telemetry, AttentionRequest r) {
    Span span = PlaneSpans.start(telemetry, PlaneSpans.ATTENTION, SpanKind.INTERNAL);
    if (span.isRecording()) {
      span.setAttribute(PlaneSpans.AGENT_CLASS, r.agentClass());
      PlaneSpans.ids(span, r.sessionId(), r.turn(), null);
    }
    return span;
  }

  static void attended(Span span, AttentionResult a, LedgerStream ho2, String key) {
    if (!span.isRecording()) {
      return;
    }
    span.setAttribute(FRAGMENTS, (long) a.fragmentCount());
    span.setAttribute(CONTEXT_TOKENS, a.tokens());
    span.setAttribute(PARTIAL, a.partial());
    Optional<String> id = ho2.idForKey(key);
    id.ifPresent(e -> PlaneSpans.ledger(span, "ho2", e, () -> hashOf(ho2, e)));
  }

  static Span gate(Telemetry telemetry, String sessionId, int turn, String woId, String agentClass) {
    Span span = PlaneSpans.start(telemetry, PlaneSpans.QUALITY_GATE, SpanKind.INTERNAL);
    if (span.isRecording()) {
      span.setAttribute(PlaneSpans.AGENT_CLASS, agentClass);
      PlaneSpans.ids(span, sessionId, turn, woId);
    }
    return span;
  }

  static String hashOf(LedgerStream ledger, String entryId) {
    return ledger.hashOf(entryId).orElse(null);
  }
}
