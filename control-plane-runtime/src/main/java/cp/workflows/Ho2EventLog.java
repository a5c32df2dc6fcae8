package cp.workflows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho2Activities;
import cp.model.EventType;
import cp.model.Ho2Event;
import cp.model.Ho2PlanEvents;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import cp.model.Json;
import cp.model.WorkOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a turn's HO2m events with deterministic keys and hands them to the HO2 activity in
 * batches (one local activity per step instead of one per event). Pure code: the turn workflow
 * and the benchmark's plain loop write the same events through it.
 */
public final class Ho2EventLog {
  private final Ho2Activities ho2;
  private final String agentClass;
  private final String sessionId;
  private final int turn;
  private final List<String> chainWoIds = new ArrayList<>();

  public Ho2EventLog(Ho2Activities ho2, String agentClass, String sessionId, int turn) {
    this.ho2 = ho2;
    this.agentClass = agentClass;
    this.sessionId = sessionId;
    this.turn = turn;
  }

  /** WO_PLANNED and WO_DISPATCHED for a work order about to run. */
  public void plannedAndDispatched(WorkOrder planned) {
    inChain(planned);
    write(Ho2PlanEvents.of(planned, turn));
  }

  /**
   * Adds a work order to the chain whose WO_PLANNED and WO_DISPATCHED its first LLM round writes
   * ({@code plan-in-round} 1), so they are not written here.
   */
  public void inChain(WorkOrder planned) {
    chainWoIds.add(planned.woId());
  }

  /** WO_QUALITY_GATE with the chain's trace hash. */
  public String qualityGate(WorkOrder synth, GateDecision d, int attempt) {
    return write(List.of(gateEvent(synth, d, attempt))).traceHash();
  }

  /** ESCALATION (when the gate never accepted) and WO_CHAIN_COMPLETE; returns the trace hash. */
  public String chainComplete(List<WorkOrder> chain, boolean escalate, List<String> lastReasons, String outcome) {
    List<Ho2Event> events = new ArrayList<>();
    if (escalate) {
      ObjectNode meta = base(null).put("attempts", chain.size() - 1);
      meta.set("reasons", Json.tree(lastReasons));
      events.add(new Ho2Event(EventType.ESCALATION.wire(), EventType.ESCALATION.wire() + "/turn", null, "ESCALATED",
          "quality gate rejected every attempt: " + String.join("; ", lastReasons), meta, false));
    }
    events.add(chainCompleteEvent(chain, outcome));
    return write(events).traceHash();
  }

  /**
   * The accepted answer's WO_QUALITY_GATE and the turn's WO_CHAIN_COMPLETE in one step (the same
   * two entries {@link #qualityGate} and {@link #chainComplete} write, with the same trace hash).
   */
  public String qualityGateAndChainComplete(WorkOrder synth, GateDecision d, int attempt, List<WorkOrder> chain,
      String outcome) {
    return write(List.of(gateEvent(synth, d, attempt), chainCompleteEvent(chain, outcome))).traceHash();
  }

  private Ho2Event gateEvent(WorkOrder synth, GateDecision d, int attempt) {
    ObjectNode meta = base(synth.woId()).put("attempt", attempt).put("accepted", d.accepted());
    meta.set("reasons", Json.tree(d.reasons()));
    return new Ho2Event(EventType.WO_QUALITY_GATE.wire(), EventType.WO_QUALITY_GATE.wire() + "/" + synth.woId(),
        synth.woId(),
        d.accepted() ? "ACCEPT" : "REJECT", d.accepted() ? "acceptance criteria met" : String.join("; ", d.reasons()),
        meta, true);
  }

  private Ho2Event chainCompleteEvent(List<WorkOrder> chain, String outcome) {
    ObjectNode meta = base(null).put("outcome", outcome).put("wo_count", chain.size());
    meta.set("wo_ids", Json.tree(chain.stream().map(WorkOrder::woId).toList()));
    meta.put("total_tokens", chain.stream().mapToLong(w -> w.cost().totalTokens()).sum());
    return new Ho2Event(EventType.WO_CHAIN_COMPLETE.wire(), EventType.WO_CHAIN_COMPLETE.wire() + "/turn", null,
        "COMPLETE", "turn " + turn
        + " chain complete: " + outcome, meta, true);
  }

  private ObjectNode base(String woId) {
    ObjectNode m = Json.object().put("session_id", sessionId).put("agent_class", agentClass).put("turn", turn)
        .put("tier", "ho2");
    if (woId != null) {
      m.put("wo_id", woId);
    }
    return m;
  }

  private Ho2RecordResult write(List<Ho2Event> events) {
    return ho2.record(new Ho2Record(agentClass, sessionId, turn, events, chainWoIds));
  }
}
