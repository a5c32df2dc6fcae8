package cp.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * HO2's two entries for a work order about to run, WO_PLANNED (with the planned work order) and
 * WO_DISPATCHED, built the same way wherever they are written: by the turn's event log (a local
 * activity), or, from {@code plan-in-round} 1, by the work order's first LLM round before it
 * prepares the work order (one local activity fewer on the turn's critical path). Pure code.
 */
public final class Ho2PlanEvents {
  private Ho2PlanEvents() {}

  /** The two events of {@code planned} (state planned), turn {@code turn}, in the order they are written. */
  public static List<Ho2Event> of(WorkOrder planned, int turn) {
    ObjectNode wo = (ObjectNode) Json.tree(planned);
    ObjectNode plannedMeta = base(planned, turn).put("wo_type", planned.woType().wireName());
    plannedMeta.set("work_order", wo);
    ObjectNode dispatchedMeta = base(planned, turn).put("wo_type", planned.woType().wireName())
        .put("dispatched_to", "ho1");
    return List.of(
        new Ho2Event(EventType.WO_PLANNED.wire(), EventType.WO_PLANNED.wire() + "/" + planned.woId(), planned.woId(),
            "PLANNED",
            planned.woType().wireName() + " under " + planned.constraints().promptContractId(), plannedMeta, false),
        new Ho2Event(EventType.WO_DISPATCHED.wire(), EventType.WO_DISPATCHED.wire() + "/" + planned.woId(),
            planned.woId(), "DISPATCHED",
            "dispatched to HO1", dispatchedMeta, false));
  }

  /**
   * The same events from the dispatched work order a round carries: the planned one differs only
   * in its state ({@link WorkOrder#transitionTo} changes nothing else), and its turn is in its id.
   *
   * @throws IllegalArgumentException when the work order is not dispatched or its id names no turn
   */
  public static List<Ho2Event> ofDispatched(WorkOrder dispatched) {
    if (dispatched.state() != WoState.DISPATCHED) {
      throw new IllegalArgumentException("work order " + dispatched.woId() + " must be dispatched to record its plan,"
          + " is " + dispatched.state().wireName());
    }
    int turn = WorkOrderId.parse(dispatched.woId()).map(WorkOrderId::turn).orElseThrow(() ->
        new IllegalArgumentException("work order id " + dispatched.woId() + " names no turn"));
    WorkOrder planned = new WorkOrder(dispatched.woId(), dispatched.woType(), dispatched.sessionId(),
        dispatched.agentClass(), WoState.PLANNED, dispatched.inputContext(), dispatched.constraints(),
        dispatched.outputResult(), dispatched.cost(), dispatched.error(), dispatched.createdAt(),
        dispatched.completedAt());
    return of(planned, turn);
  }

  private static ObjectNode base(WorkOrder wo, int turn) {
    return Json.object().put("session_id", wo.sessionId()).put("agent_class", wo.agentClass()).put("turn", turn)
        .put("tier", "ho2").put("wo_id", wo.woId());
  }
}
