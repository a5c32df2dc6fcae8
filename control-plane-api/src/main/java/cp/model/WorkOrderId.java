package cp.model;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A work-order id as a value (issue 21): {@code WO-1a2b3c4d-0007-02} is the second work order of
 * turn 7 of session {@code SES-1a2b3c4d}. Everything that needs the turn, the session or the
 * approval id of a work order asks this type instead of cutting the string itself.
 *
 * @param sessionHex the session id's hex part ({@code 1a2b3c4d})
 * @param turn the turn, from 1
 * @param seq the work order's place in its turn's chain, from 1
 */
public record WorkOrderId(String sessionHex, int turn, int seq) {
  private static final Pattern WO = Pattern.compile("WO-([0-9a-f]+)-(\\d{4,})-(\\d{2,})");

  /** The id of work order {@code seq} of turn {@code turn} of session {@code sessionId}. */
  public static WorkOrderId of(String sessionId, int turn, int seq) {
    return new WorkOrderId(sessionId.startsWith("SES-") ? sessionId.substring(4) : sessionId, turn, seq);
  }

  /** The id {@code text} names, or empty when it is not one of ours. */
  public static Optional<WorkOrderId> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher m = WO.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new WorkOrderId(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
    } catch (NumberFormatException tooLong) {
      return Optional.empty();
    }
  }

  /** The session it belongs to: {@code SES-} and its hex. */
  public String sessionId() {
    return "SES-" + sessionHex;
  }

  /** The workflow id of its turn, {@code SES-1a2b3c4d/turn-0007}. */
  public String turnWorkflowId() {
    return WorkOrderIds.turnWorkflow(sessionId(), turn);
  }

  /**
   * The id of the approval a tool call of this work order waits for: {@code APR-} + session hex,
   * turn and sequence, then the round and the call's index in it (unique in the plane).
   */
  public String approvalId(int round, int index) {
    return String.format("APR-%s-%04d-%02d-%d-%d", sessionHex, turn, seq, round, index);
  }

  @Override
  public String toString() {
    return String.format("WO-%s-%04d-%02d", sessionHex, turn, seq);
  }
}
