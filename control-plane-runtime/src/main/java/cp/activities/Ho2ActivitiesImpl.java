package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.EventType;
import cp.model.Ho2Event;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import cp.observability.PlaneSpans;
import cp.observability.Telemetry;
import io.opentelemetry.api.trace.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * HO2's activities: writing HO2m (one ledger per agent class) and attention. Trace hashes are
 * computed here, from the HO1 ledger, at the moment the gate or the chain completes.
 */
public final class Ho2ActivitiesImpl implements Ho2Activities {
  static final String GATE = EventType.WO_QUALITY_GATE.wire();
  static final String ESCALATION = EventType.ESCALATION.wire();
  static final String REJECT = "REJECT";
  private final Ledgers ledgers;
  private final AttentionAssembler attention;
  private final ActivityContextSource context;
  private final Telemetry telemetry;

  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention) {
    this(ledgers, attention, ActivityContextSource.TEMPORAL);
  }

  /** As above, learning each call's activity identity from {@code context} (outside Temporal: the benchmark). */
  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention, ActivityContextSource context) {
    this(ledgers, attention, context, Telemetry.NOOP);
  }

  /** As above, reporting the gate's and attention's spans and the gate metrics to {@code telemetry}. */
  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention, ActivityContextSource context,
      Telemetry telemetry) {
    this.telemetry = java.util.Objects.requireNonNull(telemetry, "telemetry");
    this.ledgers = ledgers;
    this.attention = attention;
    this.context = java.util.Objects.requireNonNull(context, "context");
  }

  @Override
  public Ho2RecordResult record(Ho2Record record) {
    ActivityIdentity id = context.identity();
    LedgerStream ho2 = ledgers.ho2(record.agentClass());
    String traceHash = null;
    if (record.events().stream().anyMatch(Ho2Event::withTraceHash)) {
      traceHash = TraceHash.of(ledgers.ho1(), record.sessionId(), record.chainWoIds());
    }
    List<String> ids = new ArrayList<>();
    for (Ho2Event e : record.events()) {
      ObjectNode meta = (ObjectNode) e.metadata();
      if (e.withTraceHash()) {
        meta.put("trace_hash", traceHash);
        meta.putObject("context_fingerprint").put("context_hash", traceHash);
      }
      boolean gate = GATE.equals(e.eventType());
      boolean observed = (gate || ESCALATION.equals(e.eventType())) && telemetry.enabled()
          && ho2.idForKey(id.runKey(e.key())).isEmpty();
      Span span = gate && observed ? ActivitySpans.gate(telemetry, record.sessionId(), record.turn(), e.woId(), record.agentClass())
          : Span.getInvalid();
      try {
        String entryId = ho2.write(LedgerEntry.builder(e.eventType())
            .submissionId(e.woId() == null ? record.sessionId() : e.woId()).decision(e.decision()).reason(e.reason())
            .metadata(meta).idempotencyKey(id.runKey(e.key())).build());
        ids.add(entryId);
        if (observed) {
          observe(e, span, ho2, entryId, record.agentClass());
        }
      } finally {
        span.end();
      }
    }
    return new Ho2RecordResult(ids, traceHash);
  }

  /** The gate's verdict (a span and the rejection counter) and escalations, counted once: when first written. */
  private void observe(Ho2Event e, Span span, LedgerStream ho2, String entryId, String agentClass) {
    if (ESCALATION.equals(e.eventType())) {
      telemetry.metrics().gateEscalated(agentClass);
      return;
    }
    if (REJECT.equals(e.decision())) {
      telemetry.metrics().gateRejected(agentClass);
    }
    if (span.isRecording()) {
      span.setAttribute(PlaneSpans.DECISION, e.decision());
      PlaneSpans.ledger(span, "ho2", entryId, () -> ActivitySpans.hashOf(ho2, entryId));
    }
  }

  @Override
  public AttentionResult attend(AttentionRequest request) {
    String key = context.identity().runKey(EventType.ATTENTION_ASSEMBLED.wire() + "/" + request.turn());
    Span span = ActivitySpans.attention(telemetry, request);
    try {
      AttentionResult result = attention.assemble(request, key);
      ActivitySpans.attended(span, result, ledgers.ho2(request.agentClass()), key);
      return result;
    } finally {
      span.end();
    }
  }
}
