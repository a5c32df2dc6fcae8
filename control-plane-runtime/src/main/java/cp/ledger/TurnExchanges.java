package cp.ledger;

import cp.model.EventType;
import cp.model.WoCost;

/**
 * What one turn's EXCHANGE records in the HOT ledger hold: the tokens and cost of every round trip
 * its turn workflow made, successful or not. The one reader the session (a failed or cancelled
 * turn's cost) and {@code cpctl chat} (a turn stopped by Ctrl-C) share.
 */
public final class TurnExchanges {
  /** The EXCHANGE field of a call whose model has no price. */
  static final String COST_UNKNOWN = "cost_unknown";

  private TurnExchanges() {}

  /** The sum over the EXCHANGEs of session {@code sessionId} written by {@code turnWorkflowId}. */
  public static WoCost cost(LedgerStream hot, String sessionId, String turnWorkflowId) {
    WoCost total = WoCost.ZERO;
    for (LedgerEntry e : hot.query(LedgerQuery.session(sessionId).withEventType(EventType.EXCHANGE.wire()))) {
      if (turnWorkflowId.equals(e.metaText(LedgerKeys.WORKFLOW_ID))) {
        WoCost call = WoCost.llmCall((long) e.metaNumber(LedgerKeys.INPUT_TOKENS),
            (long) e.metaNumber(LedgerKeys.OUTPUT_TOKENS), e.metaNumber(LedgerKeys.COST));
        // A model with no price: its cost is unknown, not 0 (the EXCHANGE's cost_unknown).
        boolean unpriced = e.meta(COST_UNKNOWN) != null && e.meta(COST_UNKNOWN).asBoolean();
        total = total.plus(unpriced ? call.withUnpricedCalls(1) : call);
      }
    }
    return total;
  }
}
