package cp.model;

/** The failure codes a work order can end with (seed 000, FMWK-008). */
public final class WoErrorCode {
  public static final String BUDGET_EXHAUSTED = "budget_exhausted";
  public static final String TURN_LIMIT_EXCEEDED = "turn_limit_exceeded";
  public static final String CONTRACT_NOT_FOUND = "contract_not_found";
  public static final String INPUT_SCHEMA_INVALID = "input_schema_invalid";
  public static final String OUTPUT_SCHEMA_INVALID = "output_schema_invalid";
  public static final String GATEWAY_ERROR = "gateway_error";
  public static final String TOOL_ERROR = "tool_error";
  public static final String TIMEOUT = "timeout";
  /**
   * A ledger the work order must write to refuses appends (a broken chain, a full disk, a file
   * that refuses writes); the message names the ledger and what to do.
   */
  public static final String LEDGER_UNWRITABLE = "ledger_unwritable";
  /** Failure type of a ledger on a full disk (retried); work orders fail with {@link #LEDGER_UNWRITABLE}. */
  public static final String LEDGER_FULL = "ledger_full";

  private WoErrorCode() {}

  /**
   * The code a work order fails with when the gateway refused its round: the gateway's
   * {@code budget_exhausted} stays that, any other refusal is a {@link #GATEWAY_ERROR}.
   */
  /** Whether a failure of this type is a ledger that refused an append ({@link #LEDGER_UNWRITABLE} or full). */
  public static boolean isLedgerFailure(String failureType) {
    return LEDGER_UNWRITABLE.equals(failureType) || LEDGER_FULL.equals(failureType);
  }

  public static String ofRejection(String gatewayCode) {
    return BUDGET_EXHAUSTED.equals(gatewayCode) ? BUDGET_EXHAUSTED : GATEWAY_ERROR;
  }
}
