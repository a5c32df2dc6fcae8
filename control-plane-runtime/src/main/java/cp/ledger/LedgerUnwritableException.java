package cp.ledger;

/**
 * The ledger refused an append for a reason a user or an operator must act on (a broken chain,
 * a full disk, a file or file system that refuses writes); {@link #problem()} says which and what
 * to do. A refusal for a broken chain is still thrown as {@link LedgerCorruptException}, with this
 * as its cause.
 */
public final class LedgerUnwritableException extends LedgerException {
  private static final long serialVersionUID = 1L;
  private final transient LedgerProblem problem;

  public LedgerUnwritableException(LedgerProblem problem, Throwable cause) {
    super(problem.message(), cause);
    this.problem = problem;
  }

  public LedgerProblem problem() {
    return problem;
  }
}
