package cp.ledger;

import cp.model.EventType;
import cp.model.WoCost;

/**
 * What one turn's EXCHANGE records in the HOT ledger hold: the tokens and cost of every round trip
 * its turn workflow made, successful or not. The one reader the session (a failed or cancelled
 * turn's cost) and {@code cpctl chat} (a turn stopped by Ctrl-C) share.
 */
public final class TurnExchanges {
  private TurnExchanges() {}

  /** The sum over the EXCHANGEs of session {@code sessionId} written by {@code turnWorkflowId}. */
  public static WoCost cost(LedgerStream hot, String sessionId, String turnWorkflowId) {
    WoCost total = WoCost.ZERO;
    for (LedgerEntry e : hot.query(LedgerQuery.session(sessionId).withEventType(EventType.EXCHANGE.wire()))) {
      if (turnWorkflowId.equals(e.metaText("workflow_id"))) {
        total = total.plus(WoCost.llmCall(number(e, "input_tokens"), number(e, "output_tokens"),
            e.meta("cost") == null ? 0.0 : e.meta("cost").asDouble()));
      }
    }
    return total;
  }

  private static long number(LedgerEntry e, String field) {
    return e.meta(field) == null ? 0 : e.meta(field).asLong();
  }
}
