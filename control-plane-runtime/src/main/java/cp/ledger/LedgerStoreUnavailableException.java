package cp.ledger;

/**
 * The ledger store could not be opened at start (the PostgreSQL database of {@code CP_LEDGER_URL}
 * is down, refuses the credentials or its schema cannot be migrated). The message names the URL
 * without its password; cpctl exits 2 with it.
 */
public final class LedgerStoreUnavailableException extends LedgerException {
  private static final long serialVersionUID = 1L;

  public LedgerStoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
