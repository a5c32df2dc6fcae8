package cp.worker;

import cp.activities.AgentPrices;
import cp.contracts.Catalog;
import cp.model.FallbackModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 23: the start-up checks that every dollar cap the plane keeps can be kept, because every
 * model whose calls count against it has a price. An agent with a dollar budget
 * ({@code budget.work_order_usd}/{@code session_usd}) needs a price for its model and each model of
 * its fallback chain; a plane whose {@code CP_TENANTS_FILE} sets caps needs one for every model any
 * agent's calls may go to (any tenant's session may run any agent). Otherwise a call to such a model
 * could never be admitted, and a user would learn at run time what the operator can fix at start.
 */
final class StartUpPrices {
  private StartUpPrices() {}

  /**
   * One line per model with no price that a kept cap counts: first the agents' dollar budgets, then
   * (when {@code tenantCaps}) the tenants' caps, one line per provider and model naming the agents
   * that call it. Empty when every cap can be kept.
   */
  static List<String> problems(Catalog catalog, AgentPrices prices, List<String> contractIds,
      List<FallbackModel> workerChain, Map<String, String> files, boolean tenantCaps) {
    List<String> out = new ArrayList<>(prices.unpriced(contractIds, workerChain, files));
    if (!tenantCaps) {
      return out;
    }
    Map<String, List<String>> users = new LinkedHashMap<>();
    Map<String, AgentPrices.Target> byModel = new LinkedHashMap<>();
    for (String cls : catalog.agentClasses()) {
      for (AgentPrices.Target t : prices.targets(cls, contractIds, workerChain)) {
        if (!t.priced()) {
          String key = t.providerName() + "/" + t.modelName();
          byModel.putIfAbsent(key, t);
          String user = cls + "'s " + (t.source().startsWith("model") ? "model" : t.source())
              + (files.containsKey(cls) ? " in " + files.get(cls) : "");
          List<String> u = users.computeIfAbsent(key, k -> new ArrayList<>());
          if (!u.contains(user)) {
            u.add(user);
          }
        }
      }
    }
    byModel.forEach((key, t) -> out.add(cp.model.UsdBudgets.TENANTS_FILE + " sets tenants' dollar caps, but model '"
        + t.modelName() + "' (" + (t.provider() == null ? "the worker's provider" : "provider " + t.provider())
        + "; agent " + String.join(", agent ", users.get(key))
        + ") has no price, so no call to it could be held to a cap: add its price to "
        + cp.gateway.PriceTable.PRICES_FILE + " (or " + cp.gateway.PriceTable.PRICE_INPUT + " and "
        + cp.gateway.PriceTable.PRICE_OUTPUT + " for the worker's provider)"));
    return out;
  }
}
