package cp.agents;

import cp.gateway.PriceTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 23, for {@code cpctl agents check} (no worker, no provider): a definition with a dollar
 * budget ({@code budget.work_order_usd}/{@code session_usd}) whose {@code model} or a
 * {@code fallback} entry names a model with no price is an error, as it stops the worker at start.
 * Only models a definition names are checked (one it leaves to the worker's configuration is the
 * worker's to check at start); {@code CP_PRICE_*} prices only the worker's own endpoint's models,
 * as in the gateway.
 */
public final class DefinitionPrices {
  private DefinitionPrices() {}

  /** One error per model {@code definitions} name under a dollar budget that {@code prices} has no price for. */
  public static List<DefinitionProblem> check(List<CheckedDefinition> definitions, PriceTable prices,
      String workerProvider) {
    java.util.Map<String, AgentDefinition> byFile = new java.util.LinkedHashMap<>();
    definitions.forEach(d -> byFile.put(d.file(), d.definition()));
    return check(byFile, prices, workerProvider);
  }

  /**
   * One error per model the definitions (by file, as read: with other errors too, so that one run of
   * {@code agents check} shows every problem) name under a dollar budget that {@code prices} has no price for.
   */
  public static List<DefinitionProblem> check(java.util.Map<String, AgentDefinition> definitions, PriceTable prices,
      String workerProvider) {
    List<DefinitionProblem> out = new ArrayList<>();
    definitions.forEach((file, def) -> {
      if (def.budget().workOrderUsd() == null && def.budget().sessionUsd() == null) {
        return;
      }
      check(file, "model", def.model(), prices, workerProvider, out);
      for (int i = 0; i < def.fallback().size(); i++) {
        check(file, "fallback[" + i + "]", def.fallback().get(i), prices, workerProvider, out);
      }
    });
    return out;
  }

  private static void check(String file, String key, AgentDefinition.Model m, PriceTable prices,
      String workerProvider, List<DefinitionProblem> out) {
    if (m == null || m.name() == null) {
      return;
    }
    boolean workers = m.baseUrl() == null && m.apiKeyEnv() == null
        && (m.provider() == null || m.provider().equals(workerProvider));
    String provider = m.provider() != null && m.provider().equals("offline") ? "offline"
        : workers ? workerProvider : null;
    if (prices.forModel(provider, m.name()).isEmpty()) {
      out.add(new DefinitionProblem(file, key, "model '" + m.name() + "' has no price, and the agent has a dollar"
          + " budget (budget.work_order_usd/session_usd) that cannot be kept without one: add it to "
          + PriceTable.PRICES_FILE + " or remove the dollar budget (the worker will not start)", false));
    }
  }
}
