package cp.tools;

import cp.contracts.Catalog;
import java.util.List;

/** The tools every worker implements (seed 003): read_file, query_ledger, list_packages, gate_check. */
public final class BuiltinTools {
  private BuiltinTools() {}

  public static List<Tool> all(Catalog catalog, IntegrityGates gates) {
    return List.of(new ReadFileTool(), new QueryLedgerTool(catalog), new ListPackagesTool(catalog),
        new GateCheckTool(gates));
  }
}
