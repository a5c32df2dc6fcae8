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
      if (turnWorkflowId.equals(e.metaText(LedgerKeys.WORKFLOW_ID))) {
        total = total.plus(WoCost.llmCall((long) e.metaNumber(LedgerKeys.INPUT_TOKENS),
            (long) e.metaNumber(LedgerKeys.OUTPUT_TOKENS), e.metaNumber(LedgerKeys.COST)));
      }
    }
    return total;
  }
}
