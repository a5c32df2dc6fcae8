package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerStream;
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

  public Ho2ActivitiesImpl(Ledgers ledgers, AttentionAssembler attention) {
    this.ledgers = ledgers;
    this.attention = attention;
  }

  @Override
  public Ho2RecordResult record(Ho2Record record) {
    ActivityIdentity id = ActivityIdentity.current();
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
      ids.add(ho2.write(LedgerEntry.builder(e.eventType()).submissionId(e.woId() == null ? record.sessionId() : e.woId())
          .decision(e.decision()).reason(e.reason()).metadata(meta).idempotencyKey(id.runKey(e.key())).build()));
    }
    return new Ho2RecordResult(ids, traceHash);
  }

  @Override
  public AttentionResult attend(AttentionRequest request) {
    return attention.assemble(request, ActivityIdentity.current().runKey("ATTENTION_ASSEMBLED/" + request.turn()));
  }
}
