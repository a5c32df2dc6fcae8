package cp.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import cp.activities.ExchangeRecord;
import cp.contracts.ContractLoader;
import cp.contracts.PromptRenderer;
import cp.ledger.LedgerEntry;
import cp.ledger.TornTail;
import cp.model.EventType;
import cp.model.WorkOrderIds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a turn's ledger entries say it was: its {@link CaseInput} and {@link RecordedTurn}.
 *
 * <p>The one derivation both {@code cpctl eval freeze} (writing a case) and {@code cpctl eval
 * verify} (proving it) use, and it reads only the entries a case cites, so what verify re-derives
 * is exactly what the cites prove. Pure: no I/O.
 */
public final class TurnDerivation {
  /** Version keys of {@link CaseInput#versions()}: what the ledger records of what the turn ran with. */
  public static final String AGENT_ID = "agent_id";
  public static final String CONTRACTS = "contracts";
  public static final String MODEL = "model";

  /** Outcome when the turn's completion is not on record (a turn still running, or cut short). */
  public static final String UNKNOWN_OUTCOME = "unknown";

  private static final String TOOL_OK = "ok";

  private TurnDerivation() {}

  /** A turn's input and record. */
  /**
   * @param toolsRun the tools the turn ran, in order: its TOOL_CALLs without the calls whose approval
   *     was denied or timed out (the tool did not run); what a case's default {@code tools} expects
   */
  public record Derived(CaseInput input, RecordedTurn recorded, List<String> toolsRun) {
    public Derived {
      toolsRun = List.copyOf(toolsRun);
    }
  }

  /**
   * Derives the input and record of turn {@code turn} of session {@code sessionId} from its
   * entries: SESSION_START, the classify WO_PLANNED (the user's text), the EXCHANGEs, the
   * TOOL_CALLs, the quality gates, DEGRADATION and WO_CHAIN_COMPLETE, in ledger order per stream.
   */
  public static Derived derive(String sessionId, int turn, List<LedgerEntry> entries) {
    String text = null;
    String agentClass = null;
    String tenant = null;
    String agentId = null;
    String outcome = null;
    Boolean gate = null;
    boolean degraded = false;
    ExchangeRecord answer = null;
    String firstExchangeInput = null;
    long in = 0;
    long out = 0;
    double cost = 0;
    LinkedHashSet<String> contracts = new LinkedHashSet<>();
    List<RecordedToolCall> tools = new ArrayList<>();
    List<String> toolsRun = new ArrayList<>();
    for (LedgerEntry e : entries) {
      String type = e.eventType();
      if (EventType.SESSION_START.is(type)) {
        agentClass = first(agentClass, e.metaText("agent_class"));
        tenant = e.metaText("tenant");
        agentId = e.metaText("agent_id");
      } else if (EventType.WO_PLANNED.is(type)) {
        agentClass = first(agentClass, e.metaText("agent_class"));
        if (text == null) {
          JsonNode input = e.metadata().path("work_order").path("input_context").path("user_input");
          text = input.isTextual() ? input.asText() : null;
        }
      } else if (ExchangeRecord.EVENT_TYPE.equals(type)) {
        ExchangeRecord x = ExchangeRecord.of(e);
        in += x.inputTokens();
        out += x.outputTokens();
        cost += x.costUsd();
        if (x.contractId() != null) {
          contracts.add(x.contractId());
        }
        if (firstExchangeInput == null && x.success()) {
          firstExchangeInput = x.userInput();
        }
        if (x.finalAnswer()) {
          answer = x;
        }
      } else if (EventType.TOOL_CALL.is(type) && !TornTail.TORN.equalsIgnoreCase(e.decision())) {
        String status = e.metaText("status");
        tools.add(new RecordedToolCall(e.metaText("tool_id"), e.meta("arguments"), resultOf(e),
            status == null || !TOOL_OK.equals(status.toLowerCase(Locale.ROOT))));
        if (!cp.tools.ToolErrorCodes.notApproved(e.metaText("error_code"))) {
          toolsRun.add(e.metaText("tool_id"));
        }
      } else if (EventType.WO_QUALITY_GATE.is(type)) {
        gate = e.meta("accepted") != null && e.meta("accepted").asBoolean();
      } else if (EventType.DEGRADATION.is(type)) {
        degraded = true;
      } else if (EventType.WO_CHAIN_COMPLETE.is(type)) {
        outcome = e.metaText("outcome");
      }
    }
    if (outcome == null) {
      outcome = degraded ? (answer != null && answer.degraded() ? "degraded" : "error") : UNKNOWN_OUTCOME;
    }
    Map<String, String> versions = new LinkedHashMap<>();
    putIf(versions, AGENT_ID, agentId);
    putIf(versions, CONTRACTS, contracts.isEmpty() ? null : String.join(",", contracts));
    if (answer != null) {
      putIf(versions, MODEL, modelOf(answer.entry()));
    }
    CaseInput input = new CaseInput(text != null ? text : firstExchangeInput == null ? "" : firstExchangeInput,
        agentClass, tenant, sessionId, turn, versions);
    RecordedTurn recorded = new RecordedTurn(answer == null ? "" : answer.answerText(), resultOf(answer), outcome,
        gate != null && gate, tools, cost, in, out);
    return new Derived(input, recorded, toolsRun);
  }

  /** The turn an entry of a session belongs to: its {@code turn} field, else its work order's; -1 for none. */
  public static int turnOf(LedgerEntry e) {
    JsonNode t = e.meta("turn");
    if (t != null && t.canConvertToInt() && t.isNumber()) {
      return t.asInt();
    }
    String wo = e.workOrderId();
    return wo == null ? -1 : WorkOrderIds.turnOf(wo);
  }

  /** A tool's result as recorded: JSON when the tool returned a JSON text, else the text. */
  private static JsonNode resultOf(LedgerEntry toolCall) {
    JsonNode r = toolCall.meta("result");
    return r == null || r.isNull() ? null : r.isTextual() ? TextNode.valueOf(r.asText()) : r;
  }

  /** The structured result of a synthesized answer ({@code result} beside {@code response_text}), or null. */
  private static JsonNode resultOf(ExchangeRecord answer) {
    if (answer == null || !answer.synthesize() || answer.entry().metaText("response") == null) {
      return null;
    }
    try {
      JsonNode reply = PromptRenderer.parseModelJson(answer.entry().metaText("response"));
      return reply.get(ContractLoader.RESULT);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String modelOf(LedgerEntry e) {
    String provider = e.metaText("provider_id");
    String model = e.metaText("model_id");
    if (model == null) {
      return provider;
    }
    return provider == null ? model : provider + "/" + model;
  }

  private static String first(String have, String other) {
    return have != null ? have : other;
  }

  private static void putIf(Map<String, String> m, String k, String v) {
    if (v != null && !v.isBlank()) {
      m.put(k, v);
    }
  }
}
