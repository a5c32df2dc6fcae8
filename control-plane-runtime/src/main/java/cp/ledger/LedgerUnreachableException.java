package cp.ledger;

/**
 * The ledger's store cannot be reached right now (the PostgreSQL database of {@code CP_LEDGER_URL}
 * is stopped, restarting or cut off): nothing is wrong with the ledger itself, and the same read
 * or write succeeds once the database is back. Callers wait and try again; the gateway keeps a
 * paid answer it could not record ({@code cp.gateway.ExchangeSpool}) until then. The message
 * names the database without its password.
 */
public final class LedgerUnreachableException extends LedgerException {
  private static final long serialVersionUID = 1L;

  public LedgerUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
