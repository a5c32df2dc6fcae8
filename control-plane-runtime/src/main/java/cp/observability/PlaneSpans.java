package cp.observability;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import java.util.List;
import java.util.function.Supplier;

/**
 * Our spans: names and attributes in the OpenTelemetry GenAI semantic conventions
 * ({@code chat {model}}, {@code execute_tool {name}}, {@code gen_ai.*}) plus our ids
 * ({@code cp.session_id}, {@code cp.turn}, {@code cp.wo_id}) and the ledger entry the span's work
 * wrote ({@code cp.ledger.entry_id}, {@code cp.ledger.hash}).
 *
 * <p>Spans carry no prompt or response text and no error message (a provider may echo a key in
 * one): failures are {@code error.type}, a failure code. Text is added only when
 * {@link Telemetry#CAPTURE_CONTENT} opts in.
 */
public final class PlaneSpans {
  public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
  public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
  public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
  public static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
  public static final AttributeKey<Long> MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
  public static final AttributeKey<Double> TEMPERATURE = AttributeKey.doubleKey("gen_ai.request.temperature");
  public static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
  public static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
  public static final AttributeKey<List<String>> FINISH_REASONS =
      AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
  public static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
  public static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
  public static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
  /** Where the tool comes from (issue 22): builtin, java or mcp:&lt;server&gt;. */
  public static final AttributeKey<String> TOOL_ORIGIN = AttributeKey.stringKey("cp.tool.origin");
  public static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
  public static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
  public static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
  public static final AttributeKey<String> SYSTEM_INSTRUCTIONS = AttributeKey.stringKey("gen_ai.system_instructions");
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  public static final AttributeKey<String> RESPONSE_ID = AttributeKey.stringKey("gen_ai.response.id");
  /** The session: the conversation a GenAI backend groups a session's spans by. */
  public static final AttributeKey<String> CONVERSATION_ID = AttributeKey.stringKey("gen_ai.conversation.id");
  public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");

  public static final AttributeKey<String> SESSION_ID = AttributeKey.stringKey("cp.session_id");
  public static final AttributeKey<Long> TURN = AttributeKey.longKey("cp.turn");
  public static final AttributeKey<String> WO_ID = AttributeKey.stringKey("cp.wo_id");
  public static final AttributeKey<String> AGENT_CLASS = AttributeKey.stringKey("cp.agent_class");
  /** Issue 23: the session's tenant, on the turn's invoke_agent span and each EXCHANGE's chat span. */
  public static final AttributeKey<String> TENANT = AttributeKey.stringKey("cp.tenant");
  public static final AttributeKey<String> LEDGER_ENTRY_ID = AttributeKey.stringKey("cp.ledger.entry_id");
  public static final AttributeKey<String> LEDGER_HASH = AttributeKey.stringKey("cp.ledger.hash");
  public static final AttributeKey<String> LEDGER_TIER = AttributeKey.stringKey("cp.ledger.tier");
  public static final AttributeKey<String> DECISION = AttributeKey.stringKey("cp.decision");
  public static final AttributeKey<String> STATUS = AttributeKey.stringKey("cp.status");

  public static final String CHAT = "chat";
  public static final String INVOKE_AGENT = "invoke_agent";
  public static final String EXECUTE_TOOL = "execute_tool";
  public static final String WORK_ORDER = "work_order";
  public static final String ATTENTION = "attention";
  public static final String QUALITY_GATE = "quality_gate";

  private PlaneSpans() {}

  /**
   * Our finish reason (what the ledger records: {@code stop}, {@code length}, {@code tool_use}) as
   * the GenAI conventions name it on spans ({@code stop}, {@code length}, {@code tool_call}): the one
   * mapping from one to the other.
   */
  public static String finishReason(String ours) {
    if (ours == null) {
      return "error";
    }
    return switch (ours) {
      case "tool_use" -> "tool_call";
      case "stop", "length", "content_filter", "error" -> ours;
      default -> ours;
    };
  }

  /** {@code server.address} and {@code server.port} of the endpoint a client span talks to. */
  public static void server(Span span, String host, int port) {
    if (span.isRecording() && host != null && !host.isEmpty()) {
      span.setAttribute(SERVER_ADDRESS, host);
      if (port > 0) {
        span.setAttribute(SERVER_PORT, (long) port);
      }
    }
  }

  /** A span of {@code telemetry} started now under the current context, or the no-op span when tracing is off. */
  public static Span start(Telemetry telemetry, String name, SpanKind kind) {
    return telemetry.startSpan(name, kind);
  }

  /** Our ids on {@code span}; {@code turn} is set when positive. Nulls are left out. */
  public static void ids(Span span, String sessionId, int turn, String woId) {
    if (!span.isRecording()) {
      return;
    }
    if (sessionId != null) {
      span.setAttribute(SESSION_ID, sessionId);
      span.setAttribute(CONVERSATION_ID, sessionId);
    }
    if (turn > 0) {
      span.setAttribute(TURN, (long) turn);
    }
    if (woId != null) {
      span.setAttribute(WO_ID, woId);
    }
  }

  /**
   * The ledger entry the span's work wrote: its id, and its chain hash from {@code hash} (read only
   * when the span is recording: it may cost a ledger read).
   */
  public static void ledger(Span span, String tier, String entryId, Supplier<String> hash) {
    if (!span.isRecording() || entryId == null) {
      return;
    }
    span.setAttribute(LEDGER_ENTRY_ID, entryId);
    span.setAttribute(LEDGER_TIER, tier);
    try {
      String h = hash.get();
      if (h != null) {
        span.setAttribute(LEDGER_HASH, h);
      }
    } catch (RuntimeException e) {
      // The hash is a pointer for the reader; a ledger that cannot be read now must not fail the work.
    }
  }

  /** Marks a failure by its code only (never a message: a provider may echo a secret in one). */
  public static void failed(Span span, String errorType) {
    if (span.isRecording()) {
      span.setAttribute(ERROR_TYPE, errorType == null ? "_OTHER" : errorType);
      span.setStatus(StatusCode.ERROR);
    }
  }
}
