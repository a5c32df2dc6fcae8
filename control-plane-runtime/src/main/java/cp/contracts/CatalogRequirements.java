package cp.contracts;

import java.util.List;
import java.util.Objects;

/**
 * What the code that runs a catalog needs from it, beyond valid files: the contracts its
 * workflows plan work orders under, and the tools its workers implement.
 *
 * <p>The catalog cannot know these itself (contracts sit below workflows and tools), so the
 * worker assembly passes them in. Without them a resources directory missing a contract, or an
 * agent naming a tool no worker has, loads fine and every turn then degrades; with them the load
 * is refused naming the file and the field.
 *
 * @param contractIds contracts that must exist, in the order they are reported
 * @param contractsNeededBy who needs them, for the message ("the turn workflow")
 * @param toolIds every tool an agent may name; empty means any
 */
public record CatalogRequirements(List<String> contractIds, String contractsNeededBy, List<String> toolIds) {
  /** No requirements: any valid catalog is accepted (tests of the files alone). */
  public static final CatalogRequirements NONE = new CatalogRequirements(List.of(), "", List.of());

  public CatalogRequirements {
    contractIds = List.copyOf(contractIds);
    Objects.requireNonNull(contractsNeededBy, "contractsNeededBy");
    toolIds = List.copyOf(toolIds);
  }
}
