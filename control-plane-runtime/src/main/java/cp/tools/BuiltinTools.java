package cp.tools;

import cp.contracts.Catalog;
import java.util.List;

/**
 * The tools every worker implements (seed 003): read_file, query_ledger, list_packages, gate_check;
 * and write_file (issue 15), the one that changes files.
 */
public final class BuiltinTools {
  /** The ids of {@link #all}, in its order (the catalog checks agent files against the tool registry, which holds them). */
  public static final List<String> IDS = cp.contracts.BuiltinToolIds.ALL;

  /**
   * The tools that change something: an agent's approval policy for them defaults to
   * {@code required} (a person allows each call), for the others to {@code never}.
   */
  public static final java.util.Set<String> WRITING = java.util.Set.of(WriteFileTool.ID);

  private BuiltinTools() {}

  /** Every built-in tool, configured by {@code settings}. */
  public static List<Tool> all(Catalog catalog, IntegrityGates gates, ToolSettings settings) {
    return List.of(new ReadFileTool(), new QueryLedgerTool(catalog), new ListPackagesTool(catalog),
        new GateCheckTool(gates), new WriteFileTool(settings.writeFileMaxBytes()));
  }

  /** Every built-in tool with the default settings ({@link ToolSettings#DEFAULTS}). */
  public static List<Tool> all(Catalog catalog, IntegrityGates gates) {
    return all(catalog, gates, ToolSettings.DEFAULTS);
  }
}
