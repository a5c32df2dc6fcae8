package cp.activities;

import cp.contracts.AgentModel;
import cp.contracts.Catalog;
import cp.contracts.ContractBoundary;
import cp.gateway.Gateway;
import cp.gateway.Pricing;
import java.util.Optional;

/**
 * What an agent's calls cost per token (issue 23): the price of the provider and model a call of
 * the agent under a contract is sent to ({@link AgentModelChoice}), as the gateway prices it.
 */
public final class AgentPrices {
  /** No prices: no dollar figure in any profile (tests that need none). */
  public static final AgentPrices NONE = new AgentPrices(null, null, null);

  private final Catalog catalog;
  private final Gateway gateway;
  private final String workerModel;

  /** {@code workerModel}: the model the worker's provider is asked for when neither contract nor agent names one. */
  public AgentPrices(Catalog catalog, Gateway gateway, String workerModel) {
    this.catalog = catalog;
    this.gateway = gateway;
    this.workerModel = workerModel;
  }

  /**
   * Issue 23: one line per agent with a dollar cap whose calls under one of {@code contractIds} go to
   * a model with no price (that cap could not be kept): a start-up error.
   */
  public java.util.List<String> unpriced(java.util.List<String> contractIds) {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String cls : catalog.agentClasses()) {
      if (!catalog.agent(cls).budget().hasUsdCap()) {
        continue;
      }
      for (String id : contractIds) {
        catalog.findContract(id).filter(c -> of(cls, c.boundary()).isEmpty()).ifPresent(c -> {
          AgentModel own = catalog.model(cls);
          out.add("agent " + cls + " has a dollar budget (budget.work_order_usd/session_usd) but its model '"
              + AgentModelChoice.model(c.boundary(), own, workerModel) + "' (provider "
              + java.util.Objects.requireNonNullElse(AgentModelChoice.provider(c.boundary(), own), "the worker's")
              + ", contract " + id + ") has no price: add it to CP_PRICES_FILE or remove the dollar budget");
        });
      }
    }
    return out.stream().distinct().toList();
  }

  /** The price of {@code agentClass}'s calls under a contract with {@code boundary}; empty when unknown. */
  public Optional<Pricing> of(String agentClass, ContractBoundary boundary) {
    if (gateway == null) {
      return Optional.empty();
    }
    AgentModel own = catalog.model(agentClass);
    return gateway.pricing(AgentModelChoice.provider(boundary, own), AgentModelChoice.model(boundary, own, workerModel));
  }
}
