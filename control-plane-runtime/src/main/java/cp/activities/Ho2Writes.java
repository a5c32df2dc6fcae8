package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.Ho2Event;
import cp.model.Ho2PlanEvents;
import cp.model.WorkOrder;

/**
 * How an HO2m event becomes a ledger entry, in one place: the HO2 activity writes the events a
 * turn hands it, and an LLM round that prepares its work order writes that work order's
 * WO_PLANNED and WO_DISPATCHED first ({@code plan-in-round} 1). Both key each entry by the
 * workflow run and the event's key, so whichever writes it, and however often it is retried, the
 * entry is written once.
 */
final class Ho2Writes {
  private final KeyedWrites writes;

  Ho2Writes(KeyedWrites writes) {
    this.writes = writes;
  }

  /** WO_PLANNED and WO_DISPATCHED of {@code dispatched}, in its agent class's HO2m. */
  void recordPlan(WorkOrder dispatched) {
    LedgerStream ho2 = writes.ledgers().ho2(dispatched.agentClass());
    for (Ho2Event e : Ho2PlanEvents.ofDispatched(dispatched)) {
      write(writes, ho2, dispatched.sessionId(), e, (ObjectNode) e.metadata(), writes.identity().runKey(e.key()));
    }
  }

  /** Writes {@code e} with metadata {@code meta} under {@code key}; its submission is its work order, else the session. */
  static KeyedWrites.Written write(KeyedWrites writes, LedgerStream ho2, String sessionId, Ho2Event e, ObjectNode meta,
      String key) {
    return writes.write(ho2, LedgerEntry.builder(e.eventType()).submissionId(e.woId() == null ? sessionId : e.woId())
        .decision(e.decision()).reason(e.reason()).metadata(meta), key, false);
  }
}
