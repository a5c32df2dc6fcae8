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
   * One model a call of {@code agentClass} may be sent to: {@code source} says where it comes from
   * ({@code model (contract PRC-…)}, {@code fallback[0]}, {@code CP_FALLBACK_MODELS entry 1}); a null
   * {@code model} is its provider's default. {@code priced}: whether the gateway has a price for it.
   */
  public record Target(String agentClass, String source, String provider, String model, boolean priced) {
    /** The model's name as people read it. */
    public String modelName() {
      return model != null ? model : "its provider's default model";
    }

    /** The provider's id as people read it. */
    public String providerName() {
      return provider != null ? provider : "the worker's";
    }
  }

  /**
   * Issue 23: every model a call of {@code agentClass} under one of {@code contractIds} may be sent
   * to: its model per contract, then each model of its fallback chain (its own {@code fallback}, or
   * {@code workerChain}, CP_FALLBACK_MODELS, when it has none of its own).
   */
  public java.util.List<Target> targets(String agentClass, java.util.List<String> contractIds,
      java.util.List<cp.model.FallbackModel> workerChain) {
    java.util.List<Target> out = new java.util.ArrayList<>();
    AgentModel own = catalog.model(agentClass);
    for (String id : contractIds) {
      catalog.findContract(id).ifPresent(c -> out.add(new Target(agentClass, "model (contract " + id + ")",
          AgentModelChoice.provider(c.boundary(), own), AgentModelChoice.model(c.boundary(), own, workerModel),
          of(agentClass, c.boundary()).isPresent())));
    }
    boolean ownChain = own.fallback() != null;
    java.util.List<cp.model.FallbackModel> chain = ownChain ? own.fallback() : workerChain;
    for (int i = 0; i < chain.size(); i++) {
      cp.model.FallbackModel f = chain.get(i);
      out.add(new Target(agentClass, ownChain ? "fallback[" + i + "]" : "CP_FALLBACK_MODELS entry " + (i + 1),
          f.provider(), f.model(), gateway != null && gateway.pricing(f.provider(), f.model()).isPresent()));
    }
    return out;
  }

  /**
   * Issue 23: one line per model with no price that a call of an agent with a dollar cap may be sent
   * to under one of {@code contractIds} (its model, or a model of its fallback chain: that cap could
   * not be kept): a start-up error. {@code files}: the definition file of each defined agent class.
   */
  public java.util.List<String> unpriced(java.util.List<String> contractIds,
      java.util.List<cp.model.FallbackModel> workerChain, java.util.Map<String, String> files) {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String cls : catalog.agentClasses()) {
      if (!catalog.agent(cls).budget().hasUsdCap()) {
        continue;
      }
      String where = files.containsKey(cls) ? " in " + files.get(cls) : "";
      for (Target t : targets(cls, contractIds, workerChain)) {
        if (!t.priced()) {
          boolean primary = t.source().startsWith("model");
          out.add("agent " + cls + " has a dollar budget (budget.work_order_usd/session_usd" + where + ") but its "
              + (primary ? "model '" + t.modelName() + "' (provider " + t.providerName() + ", "
                  + t.source().substring("model (".length())
              : "fallback model '" + t.modelName() + "' (" + t.source() + ", provider " + t.providerName() + ")")
              + " has no price: add it to CP_PRICES_FILE or remove the dollar budget");
        }
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
