package cp.model;

import java.util.regex.Pattern;

/**
 * Deterministic, readable ids: {@code WO-1a2b3c4d-0007-02} is the second work order of turn 7
 * of session {@code SES-1a2b3c4d}; {@code SES-1a2b3c4d/turn-0007} is that turn's workflow. A
 * work-order id as a value is {@link WorkOrderId}.
 */
public final class WorkOrderIds {
  public static final Pattern SESSION_ID = Pattern.compile("SES-[0-9a-f]{8}");

  private WorkOrderIds() {}

  public static String workOrder(String sessionId, int turn, int seq) {
    return WorkOrderId.of(sessionId, turn, seq).toString();
  }

  public static String turnWorkflow(String sessionId, int turn) {
    return String.format("%s/turn-%04d", sessionId, turn);
  }

  /** The turn number encoded in a work-order id, or -1 when it is not one of ours. */
  public static int turnOf(String woId) {
    return WorkOrderId.parse(woId).map(WorkOrderId::turn).orElse(-1);
  }
}
