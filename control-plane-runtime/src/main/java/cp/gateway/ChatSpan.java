package cp.gateway;

import cp.ledger.LedgerStream;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.gateway.http.HttpLlmProvider;
import cp.model.WorkOrderIds;
import cp.observability.PlaneSpans;
import cp.observability.Telemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import java.util.List;

/**
 * The GenAI {@code chat {model}} span of one provider round trip (issue 14): opened by the gateway
 * just before it sends, closed once the EXCHANGE that records the round trip is written, so the
 * span points at that entry. It runs inside the activity attempt that made the call, so a replayed
 * workflow never emits it again; a retried attempt answered from the ledger makes no round trip
 * and no span.
 */
final class ChatSpan {
  private ChatSpan() {}

  static Span start(Telemetry telemetry, PromptRequest r, String providerId, String model, LlmProvider provider) {
    Span span = PlaneSpans.start(telemetry, model.isEmpty() ? PlaneSpans.CHAT : PlaneSpans.CHAT + " " + model,
        SpanKind.CLIENT);
    if (!span.isRecording()) {
      return span;
    }
    span.setAttribute(PlaneSpans.OPERATION, PlaneSpans.CHAT);
    span.setAttribute(PlaneSpans.PROVIDER, providerId);
    if (provider instanceof HttpLlmProvider http) {
      PlaneSpans.server(span, http.endpoint().host(), http.endpoint().port());
    }
    if (!model.isEmpty()) {
      span.setAttribute(PlaneSpans.REQUEST_MODEL, model);
    }
    span.setAttribute(PlaneSpans.MAX_TOKENS, (long) r.maxTokens());
    span.setAttribute(PlaneSpans.TEMPERATURE, r.temperature());
    if (r.agentClass() != null) {
      span.setAttribute(PlaneSpans.AGENT_CLASS, r.agentClass());
    }
    span.setAttribute(PlaneSpans.TENANT, cp.model.TenantId.orDefault(r.tenant()));
    PlaneSpans.ids(span, r.sessionId(), WorkOrderIds.turnOf(r.workOrderId()), r.workOrderId());
    if (telemetry.captureContent()) {
      if (r.system() != null) {
        span.setAttribute(PlaneSpans.SYSTEM_INSTRUCTIONS, r.system());
      }
      span.setAttribute(PlaneSpans.INPUT_MESSAGES, Json.write(r.messages()));
    }
    return span;
  }

  static void succeeded(Telemetry telemetry, Span span, LedgerStream hot, String entryId, ProviderReply reply,
      PromptRequest sent) {
    if (!span.isRecording()) {
      return;
    }
    if (reply.modelId() != null) {
      span.setAttribute(PlaneSpans.RESPONSE_MODEL, reply.modelId());
    }
    span.setAttribute(PlaneSpans.INPUT_TOKENS, reply.inputTokens());
    span.setAttribute(PlaneSpans.OUTPUT_TOKENS, reply.outputTokens());
    span.setAttribute(PlaneSpans.FINISH_REASONS, List.of(PlaneSpans.finishReason(reply.finishReason())));
    if (reply.responseId() != null) {
      span.setAttribute(PlaneSpans.RESPONSE_ID, reply.responseId());
    }
    if (sent.maxTokens() > 0) {
      span.setAttribute(PlaneSpans.MAX_TOKENS, (long) sent.maxTokens());
    }
    if (telemetry.captureContent()) {
      span.setAttribute(PlaneSpans.OUTPUT_MESSAGES, Json.write(reply.content()));
    }
    PlaneSpans.ledger(span, "hot", entryId, () -> hashOf(hot, entryId));
  }

  static void failed(Span span, LedgerStream hot, String entryId, String code) {
    PlaneSpans.failed(span, code);
    PlaneSpans.ledger(span, "hot", entryId, () -> hashOf(hot, entryId));
  }

  static String hashOf(LedgerStream ledger, String entryId) {
    return ledger.hashOf(entryId).orElse(null);
  }
}
