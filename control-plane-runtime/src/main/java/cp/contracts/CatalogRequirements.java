package cp.contracts;

import cp.model.ContractIds;
import java.util.List;
import java.util.Objects;

/**
 * What the code that runs a catalog needs from it, beyond valid files: the contracts its
 * workflows plan work orders under, and the tools its workers have.
 *
 * <p>The catalog cannot know these itself (contracts sit below workflows and tools), so the
 * worker assembly passes them in. Without them a resources directory missing a contract, or an
 * agent naming a tool no worker has, loads fine and every turn then degrades; with them the load
 * is refused naming the file and the field.
 *
 * @param contractIds contracts that must exist, in the order they are reported
 * @param contractsNeededBy who needs them, for the message ("the turn workflow")
 * @param tools every tool an agent may name (the worker's tool registry); no names means any
 */
public record CatalogRequirements(List<String> contractIds, String contractsNeededBy, ToolNamespace tools) {
  /** No requirements: any valid catalog is accepted (tests of the files alone). */
  public static final CatalogRequirements NONE = new CatalogRequirements(List.of(), "", List.of());

  /**
   * What the plane's own code needs: the contracts the turn workflow plans under and the built-in
   * tools. The product's catalog must meet them ({@link Catalog#loadDefault()} checks it); a worker
   * with Java or MCP tools checks against its registry instead ({@link #withTools}).
   */
  public static final CatalogRequirements SHIPPED =
      new CatalogRequirements(ContractIds.PLANNED, "the turn workflow", BuiltinToolIds.ALL);

  public CatalogRequirements {
    contractIds = List.copyOf(contractIds);
    Objects.requireNonNull(contractsNeededBy, "contractsNeededBy");
    Objects.requireNonNull(tools, "tools");
  }

  public CatalogRequirements(List<String> contractIds, String contractsNeededBy, List<String> toolIds) {
    this(contractIds, contractsNeededBy, ToolNamespace.of(toolIds));
  }

  /** The names of every tool an agent may name; empty means any. */
  public List<String> toolIds() {
    return tools.names();
  }

  /** The same contracts, and the tools of {@code registry}. */
  public CatalogRequirements withTools(ToolNamespace registry) {
    return new CatalogRequirements(contractIds, contractsNeededBy, registry);
  }
}
