package cp.model;

/**
 * The failure codes a work order can end with (seed 000, FMWK-008), as the strings
 * {@link WoError#code()} carries: each is a {@link FailureCode}'s {@link FailureCode#wire()}.
 */
public final class WoErrorCode {
  public static final String BUDGET_EXHAUSTED = FailureCode.BUDGET_EXHAUSTED.wire();
  public static final String TURN_LIMIT_EXCEEDED = FailureCode.TURN_LIMIT_EXCEEDED.wire();
  public static final String CONTRACT_NOT_FOUND = FailureCode.CONTRACT_NOT_FOUND.wire();
  public static final String INPUT_SCHEMA_INVALID = FailureCode.INPUT_SCHEMA_INVALID.wire();
  public static final String OUTPUT_SCHEMA_INVALID = FailureCode.OUTPUT_SCHEMA_INVALID.wire();
  public static final String GATEWAY_ERROR = FailureCode.GATEWAY_ERROR.wire();
  public static final String TOOL_ERROR = FailureCode.TOOL_ERROR.wire();
  public static final String TIMEOUT = FailureCode.TIMEOUT.wire();
  /**
   * A ledger the work order must write to refuses appends (a broken chain, a full disk, a file
   * that refuses writes); the message names the ledger and what to do.
   */
  public static final String LEDGER_UNWRITABLE = FailureCode.LEDGER_UNWRITABLE.wire();
  /** Failure type of a ledger on a full disk (retried); work orders fail with {@link #LEDGER_UNWRITABLE}. */
  public static final String LEDGER_FULL = FailureCode.LEDGER_FULL.wire();

  private WoErrorCode() {}

  /** Whether a failure of this type is a ledger that refused an append ({@link #LEDGER_UNWRITABLE} or full). */
  public static boolean isLedgerFailure(String failureType) {
    return FailureCode.isLedgerFailure(failureType);
  }

  /**
   * The code a work order fails with when the gateway refused its round: the gateway's
   * {@code budget_exhausted} stays that, any other refusal is a {@link #GATEWAY_ERROR}.
   */
  public static String ofRejection(String gatewayCode) {
    return FailureCode.ofRejection(gatewayCode).wire();
  }
}
