package cp.ledger;

/**
 * The outcome of walking a ledger's hash chain.
 *
 * @param entries lines that verified before the first bad one (all of them when ok)
 * @param firstBadLine 1-based line number of the first bad line, or 0 when ok
 * @param reason why that line is bad, or empty when ok
 */
public record VerifyResult(boolean ok, long entries, long firstBadLine, String reason) {
  public static VerifyResult ok(long entries) {
    return new VerifyResult(true, entries, 0, "");
  }

  public static VerifyResult bad(long goodEntries, long line, String reason) {
    return new VerifyResult(false, goodEntries, line, reason);
  }
}
