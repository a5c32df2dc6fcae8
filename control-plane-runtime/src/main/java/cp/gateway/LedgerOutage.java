package cp.gateway;

import cp.ledger.LedgerUnreachableException;

/**
 * What a user reads when a call waited or failed because the ledger's database could not be
 * reached ({@code ledger_unavailable}): that the ledger database was down, which one (without a
 * password), and that no paid answer is lost or paid for twice.
 */
public final class LedgerOutage {
  private LedgerOutage() {}

  /** One line from the store's own (which database, why). */
  public static String message(LedgerUnreachableException e) {
    return "the ledger database is down or unreachable (" + e.getMessage() + "); this call waits for it and is"
        + " retried. An answer the provider already gave is kept and recorded when the database is back, never"
        + " paid for twice";
  }
}
