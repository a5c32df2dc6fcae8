package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.Ledger;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.Ho2Event;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import java.util.ArrayList;
import java.util.List;

/**
 * HO2's activities: writing HO2m (one ledger per agent class) and attention. Trace hashes are
 * computed here, from the HO1 ledger, at the moment the gate or the chain completes.
 */
public final class Ho2ActivitiesImpl implements Ho2Activities {
  private final Ledgers ledgers;
  private final AttentionAssembler attention;
  private final ActivityContextSource context;

  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention) {
    this(ledgers, attention, ActivityContextSource.TEMPORAL);
  }

  /** As above, learning each call's activity identity from {@code context} (outside Temporal: the benchmark). */
  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention, ActivityContextSource context) {
    this.ledgers = ledgers;
    this.attention = attention;
    this.context = java.util.Objects.requireNonNull(context, "context");
  }

  @Override
  public Ho2RecordResult record(Ho2Record record) {
    ActivityIdentity id = context.identity();
    Ledger ho2 = ledgers.ho2(record.agentClass());
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
      ids.add(ho2.write(LedgerEntry.builder(e.eventType()).submissionId(e.woId() == null ? record.sessionId() : e.woId())
          .decision(e.decision()).reason(e.reason()).metadata(meta).idempotencyKey(id.runKey(e.key())).build()));
    }
    return new Ho2RecordResult(ids, traceHash);
  }

  @Override
  public AttentionResult attend(AttentionRequest request) {
    return attention.assemble(request, context.identity().runKey("ATTENTION_ASSEMBLED/" + request.turn()));
  }
}
