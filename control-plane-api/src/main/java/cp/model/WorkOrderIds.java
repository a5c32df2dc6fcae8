package cp.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deterministic, readable ids: {@code WO-1a2b3c4d-0007-02} is the second work order of turn 7
 * of session {@code SES-1a2b3c4d}; {@code SES-1a2b3c4d/turn-0007} is that turn's workflow.
 */
public final class WorkOrderIds {
  private static final Pattern WO = Pattern.compile("WO-([0-9a-f]+)-(\\d{4,})-(\\d{2,})");
  public static final Pattern SESSION_ID = Pattern.compile("SES-[0-9a-f]{8}");

  private WorkOrderIds() {}

  public static String workOrder(String sessionId, int turn, int seq) {
    return String.format("WO-%s-%04d-%02d", sessionHex(sessionId), turn, seq);
  }

  public static String turnWorkflow(String sessionId, int turn) {
    return String.format("%s/turn-%04d", sessionId, turn);
  }

  /** The turn number encoded in a work-order id, or -1 when it is not one of ours. */
  public static int turnOf(String woId) {
    if (woId == null) {
      return -1;
    }
    Matcher m = WO.matcher(woId);
    return m.matches() ? Integer.parseInt(m.group(2)) : -1;
  }

  private static String sessionHex(String sessionId) {
    return sessionId.startsWith("SES-") ? sessionId.substring(4) : sessionId;
  }
}
