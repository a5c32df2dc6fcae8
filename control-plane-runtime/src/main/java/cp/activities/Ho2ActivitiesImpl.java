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
  private final AttentionAssembler attention;
  private final KeyedWrites writes;
  private final Telemetry telemetry;

  /**
   * Learns each call's activity identity from {@code context} ({@link ActivityContextSource#TEMPORAL}
   * in a worker) and reports the gate's and attention's spans and the gate metrics to
   * {@code telemetry} ({@link Telemetry#NOOP}: none).
   */
  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention, ActivityContextSource context,
      Telemetry telemetry) {
    this.attention = attention;
    this.writes = new KeyedWrites(ledgers, context);
    this.telemetry = java.util.Objects.requireNonNull(telemetry, "telemetry");
  }

  @Override
  public Ho2RecordResult record(Ho2Record record) {
    ActivityIdentity id = writes.identity();
    Ledgers ledgers = writes.ledgers();
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
      String key = id.runKey(e.key());
      // Observed once: by the attempt that writes the entry; the gate's span starts before that write.
      boolean observed = (gate || ESCALATION.equals(e.eventType())) && telemetry.enabled()
          && ho2.idForKey(key).isEmpty();
      Span span = gate && observed ? ActivitySpans.gate(telemetry, record.sessionId(), record.turn(), e.woId(),
          record.agentClass())
          : Span.getInvalid();
      try {
        KeyedWrites.Written w = Ho2Writes.write(writes, ho2, record.sessionId(), e, meta, key);
        ids.add(w.entryId());
        if (observed) {
          observe(e, span, ho2, w.entryId(), record.agentClass());
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
    String key = writes.identity().runKey(EventType.ATTENTION_ASSEMBLED.wire() + "/" + request.turn());
    Span span = ActivitySpans.attention(telemetry, request);
    try {
      AttentionResult result = attention.assemble(request, key);
      ActivitySpans.attended(span, result, writes.ledgers().ho2(request.agentClass()), key);
      return result;
    } finally {
      span.end();
    }
  }
}
