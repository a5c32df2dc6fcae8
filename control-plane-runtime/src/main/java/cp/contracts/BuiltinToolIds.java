package cp.contracts;

import java.util.List;

/**
 * The ids of the tools every worker implements (read_file, query_ledger, list_packages,
 * gate_check, write_file), in the order messages list them.
 *
 * <p>They live here, below the tools that implement them, so that the catalog can check the
 * shipped agent files against them ({@link CatalogRequirements#SHIPPED}) without depending on
 * the tools layer; {@code cp.tools.BuiltinTools} registers exactly these (CatalogRequirementsTest).
 */
public final class BuiltinToolIds {
  public static final List<String> ALL = List.of("read_file", "query_ledger", "list_packages", "gate_check",
      "write_file");

  private BuiltinToolIds() {}
}
