package cp.model;

import java.util.List;

/** The prompt contracts HO2 plans work orders under (files in resources/contracts/). */
public final class ContractIds {
  public static final String CLASSIFY = "PRC-CLASSIFY-001";
  public static final String SYNTHESIZE = "PRC-SYNTHESIZE-001";
  public static final String EXECUTE = "PRC-EXECUTE-001";
  public static final String DEGRADED = "PRC-DEGRADED-001";
  /**
   * The contracts the workflows plan work orders under: a catalog without one of them is refused
   * at start-up. EXECUTE is shipped but no workflow plans under it yet, so it is not required.
   */
  public static final List<String> PLANNED = List.of(CLASSIFY, SYNTHESIZE, DEGRADED);

  private ContractIds() {}
}
