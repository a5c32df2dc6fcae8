package cp.ledger;

/**
 * The outcome of walking a ledger's hash chain.
 *
 * @param entries lines that verified before the first bad one (all of them when ok)
 * @param firstBadLine 1-based line number of the first bad line, or 0 when ok
 * @param reason why that line is bad, or empty when ok
 * @param kind what kind of problem it is (OK when ok)
 */
public record VerifyResult(boolean ok, long entries, long firstBadLine, String reason, Kind kind) {
  /** What {@code verify} found. */
  public enum Kind {
    /** The chain is intact (and, with a key, authenticated). */
    OK,
    /** A line was changed, removed, cut or added: tampering or damage. */
    BROKEN,
    /** The chain is keyed and no {@code CP_LEDGER_HMAC_KEY} is set: it cannot be verified (nor extended). */
    NEEDS_KEY,
    /** The chain is keyed with another key than {@code CP_LEDGER_HMAC_KEY}. */
    WRONG_KEY,
    /** {@code CP_LEDGER_HMAC_KEY} is set, but no entry of this ledger is keyed: nothing in it is authenticated. */
    UNKEYED
  }

  public VerifyResult(boolean ok, long entries, long firstBadLine, String reason) {
    this(ok, entries, firstBadLine, reason, ok ? Kind.OK : Kind.BROKEN);
  }

  public static VerifyResult ok(long entries) {
    return new VerifyResult(true, entries, 0, "", Kind.OK);
  }

  public static VerifyResult bad(long goodEntries, long line, String reason) {
    return new VerifyResult(false, goodEntries, line, reason, Kind.BROKEN);
  }

  static VerifyResult of(Kind kind, long goodEntries, long line, String reason) {
    return new VerifyResult(kind == Kind.OK, goodEntries, line, reason, kind);
  }

  /** How a read-only verification names a final line without its newline (a write cut short, or garbage). */
  static final String INCOMPLETE_FINAL_LINE = "incomplete final line";

  /**
   * Whether the problem is an incomplete final line: what a crash mid-write leaves, which the next
   * process to open the ledger for writing moves to a {@code .torn-*} file (so a command that must
   * change nothing does not open it).
   */
  public boolean tornTail() {
    return !ok && reason != null && reason.startsWith(INCOMPLETE_FINAL_LINE);
  }

  /** Whether the problem is about the key (not evidence of tampering by itself). */
  public boolean keyProblem() {
    return kind == Kind.NEEDS_KEY || kind == Kind.WRONG_KEY;
  }
}
