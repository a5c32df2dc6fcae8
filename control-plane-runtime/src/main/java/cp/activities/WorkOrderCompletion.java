package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.ContractLoader;
import cp.contracts.PromptContract;
import cp.contracts.PromptRenderer;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.EventType;
import cp.model.Json;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import cp.model.WoOutcome;
import cp.model.WoType;
import cp.observability.PlaneSpans;
import cp.observability.Telemetry;
import io.opentelemetry.api.trace.Span;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * HO1's finish step: validates the final text against the contract (unless the work order
 * already failed) and writes WO_COMPLETED or WO_FAILED with the cost.
 *
 * <p>A retried finish (a lost completion, or a round re-run after a crash) returns the outcome it
 * recorded: everything is a function of the request except the completion time, which is read
 * back from the entry the first attempt wrote.
 */
final class WorkOrderCompletion {
  /**
   * What is being finished: the work order's identity, its cost, and its final text, the TOOL_CALL
   * entry holding a tool_call work order's result ({@code toolResultRef}), or its failure.
   */
  record Closing(String woId, String sessionId, WoType woType, String contractId, WoCost cost, String finalText,
      String toolResultRef, String failureCode, String failureMessage, String agentClass,
      cp.model.RefusalKind refusal) {
    /** A closing that is no budget's refusal. */
    Closing(String woId, String sessionId, WoType woType, String contractId, WoCost cost, String finalText,
        String toolResultRef, String failureCode, String failureMessage, String agentClass) {
      this(woId, sessionId, woType, contractId, cost, finalText, toolResultRef, failureCode, failureMessage,
          agentClass, null);
    }
  }

  private final ContractLoader contracts;
  private final Ledgers ledgers;
  private final Clock clock;

  private final Telemetry telemetry;

  WorkOrderCompletion(ContractLoader contracts, Ledgers ledgers, Clock clock, Telemetry telemetry) {
    this.telemetry = telemetry;
    this.contracts = contracts;
    this.ledgers = ledgers;
    this.clock = clock;
  }

  WoOutcome finish(Closing c, ActivityIdentity id) {
    Optional<String> recorded = recordedCompletionTime(id, c.woId());
    if (recorded.isPresent()) {
      return finish(c, id, recorded.get());
    }
    // Only the attempt that records the outcome gets a span: a retry returns what was recorded.
    Span span = ActivitySpans.workOrder(telemetry, c.woId(), c.sessionId(), c.woType().wireName());
    try {
      WoOutcome done = finish(c, id, clock.instant().toString());
      if (span.isRecording()) {
        span.setAttribute(PlaneSpans.STATUS, done.error() == null ? "completed" : "failed");
        span.setAttribute(ActivitySpans.WO_INPUT_TOKENS, done.cost().inputTokens());
        span.setAttribute(ActivitySpans.WO_OUTPUT_TOKENS, done.cost().outputTokens());
        if (done.error() != null) {
          PlaneSpans.failed(span, done.error().code());
        }
        String type = done.error() == null ? EventType.WO_COMPLETED.wire() : EventType.WO_FAILED.wire();
        LedgerStream ho1 = ledgers.ho1();
        ho1.idForKey(id.runKey(type + "/" + c.woId()))
            .ifPresent(e -> PlaneSpans.ledger(span, "ho1", e, () -> ActivitySpans.hashOf(ho1, e)));
      }
      return done;
    } finally {
      span.end();
    }
  }

  private WoOutcome finish(Closing c, ActivityIdentity id, String now) {
    WoOutcome done = c.failureCode() != null
        ? WoOutcome.failed(new cp.model.WoError(c.failureCode(), c.failureMessage(), c.refusal()), now, c.cost())
        : complete(c, now);
    ObjectNode meta = Ho1ActivitiesImpl.ho1Meta(c.woId(), c.sessionId()).put("wo_type", c.woType().wireName())
        .put("contract_id", c.contractId()).put("completed_at", now);
    meta.set("cost", Json.tree(done.cost()));
    String type;
    if (done.error() != null) {
      type = EventType.WO_FAILED.wire();
      meta.put("error_code", done.error().code()).put("error_message", done.error().message());
    } else {
      type = EventType.WO_COMPLETED.wire();
      meta.set("output_result", done.outputResult());
    }
    ledgers.ho1().write(LedgerEntry.builder(type).submissionId(c.woId())
        .decision(done.error() == null ? "COMPLETED" : "FAILED")
        .reason(done.error() == null ? "executing -> completed" : done.error().code() + ": " + done.error().message())
        .metadata(meta).idempotencyKey(id.runKey(type + "/" + c.woId())).build());
    return done;
  }

  /** The completed_at of the WO_COMPLETED or WO_FAILED this run already wrote for the work order, if any. */
  private Optional<String> recordedCompletionTime(ActivityIdentity id, String woId) {
    LedgerStream ho1 = ledgers.ho1();
    for (String type : List.of(EventType.WO_COMPLETED.wire(), EventType.WO_FAILED.wire())) {
      Optional<String> at = ho1.idForKey(id.runKey(type + "/" + woId)).flatMap(ho1::byId)
          .map(e -> e.metaText("completed_at"));
      if (at.isPresent()) {
        return at;
      }
    }
    return Optional.empty();
  }

  private WoOutcome complete(Closing c, String now) {
    if (c.toolResultRef() != null) {
      return WoOutcome.completed(Json.object().put("tool_entry_id", c.toolResultRef()), now, c.cost());
    }
    String text = c.finalText();
    PromptContract contract = contracts.load(c.contractId());
    JsonNode output;
    if (contract.structuredOutput()) {
      try {
        output = PromptRenderer.parseModelJson(text == null ? "" : text);
      } catch (IllegalArgumentException e) {
        return WoOutcome.failed(WoErrorCode.OUTPUT_SCHEMA_INVALID, "the model's answer is not JSON: " + e.getMessage(),
            now, c.cost());
      }
    } else {
      output = Json.MAPPER.getNodeFactory().textNode(text == null ? "" : text);
    }
    List<String> problems = contracts.validateOutput(contract, c.agentClass(), output);
    if (!problems.isEmpty()) {
      return WoOutcome.failed(WoErrorCode.OUTPUT_SCHEMA_INVALID, "output does not match " + contract.contractId() + ": "
          + String.join("; ", problems), now, c.cost());
    }
    return WoOutcome.completed(output.isObject() ? output : Json.object().set("text", output), now, c.cost());
  }
}
