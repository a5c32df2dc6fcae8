package cp.contracts;

import java.util.List;

/**
 * No prompt contract has the requested id; HO1 fails the work order with {@code contract_not_found}.
 *
 * <p>The message reads {@code contract PRC-X-001 not found in contracts/ (known: PRC-CLASSIFY-001, ...)}.
 */
public class ContractNotFoundException extends CatalogEntryNotFoundException {
  public ContractNotFoundException(String contractId, List<String> known) {
    super(ArtifactKind.CONTRACT, contractId, known);
  }

  public String contractId() {
    return id();
  }
}
