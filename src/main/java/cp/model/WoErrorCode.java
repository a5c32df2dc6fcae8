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

  private WoErrorCode() {}

  /**
   * The code a work order fails with when the gateway refused its round: the gateway's
   * {@code budget_exhausted} stays that, any other refusal is a {@link #GATEWAY_ERROR}.
   */
  public static String ofRejection(String gatewayCode) {
    return BUDGET_EXHAUSTED.equals(gatewayCode) ? BUDGET_EXHAUSTED : GATEWAY_ERROR;
  }
}
