package cp.workflows;

/** The prompt contracts HO2 plans work orders under (files in resources/contracts/). */
public final class ContractIds {
  public static final String CLASSIFY = "PRC-CLASSIFY-001";
  public static final String SYNTHESIZE = "PRC-SYNTHESIZE-001";
  public static final String EXECUTE = "PRC-EXECUTE-001";
  public static final String DEGRADED = "PRC-DEGRADED-001";

  private ContractIds() {}
}
