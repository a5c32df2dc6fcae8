package cp.ledger;

/**
 * The ledger's hash chain is broken, so it refuses to grow: appending to a broken chain would
 * bury the evidence. {@code cpctl ledger repair} quarantines the bad tail explicitly.
 */
public final class LedgerCorruptException extends LedgerException {
  private static final long serialVersionUID = 1L;
  private final VerifyResult result;

  public LedgerCorruptException(String file, VerifyResult result) {
    super(result.keyProblem()
        ? file + " cannot be extended: " + result.reason() + "; appends are refused until then"
        : file + " is corrupt at line " + result.firstBadLine() + ": " + result.reason()
            + "; appends are refused until it is inspected ('cpctl ledger verify') and repaired ('cpctl ledger repair')");
    this.result = result;
  }

  public VerifyResult result() {
    return result;
  }
}
