package cp.tools;

import cp.contracts.Catalog;
import java.util.List;

/** The tools every worker implements (seed 003): read_file, query_ledger, list_packages, gate_check. */
public final class BuiltinTools {
  /** The ids of {@link #all}, in its order: the only tools an agent config may name. */
  public static final List<String> IDS = List.of(ReadFileTool.ID, QueryLedgerTool.ID, ListPackagesTool.ID,
      GateCheckTool.ID);

  private BuiltinTools() {}

  public static List<Tool> all(Catalog catalog, IntegrityGates gates) {
    return List.of(new ReadFileTool(), new QueryLedgerTool(catalog), new ListPackagesTool(catalog),
        new GateCheckTool(gates));
  }
}
