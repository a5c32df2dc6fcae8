package cp.worker;

import cp.agents.AgentModels;
import cp.gateway.ProviderConfigException;
import cp.gateway.ProviderFactory;
import cp.gateway.ProviderSelection;
import cp.model.FallbackModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 23: the fallback chain of the built-in agents (and of defined agents that name neither a
 * model nor a fallback), {@code CP_FALLBACK_MODELS}: comma-separated {@code provider:model}
 * entries, e.g. {@code anthropic:claude-haiku-4-5,openai:gpt-4o-mini}, each reached with its
 * provider type's usual variables (base URL, key).
 */
final class WorkerFallbacks {
  static final String VARIABLE = "CP_FALLBACK_MODELS";

  /** The providers the chain needs beside the worker's, and the chain. */
  record Chain(Map<String, ProviderSelection> routes, List<FallbackModel> models, java.time.Duration rateLimitWait) {}

  /** The longest rate-limit wait a call sits out on its own model before it falls back. */
  static final String WAIT_VARIABLE = "CP_FALLBACK_RATE_LIMIT_WAIT_MS";

  private WorkerFallbacks() {}

  static Chain of(Map<String, String> env, ProviderSelection worker) {
    String w = env.get(WAIT_VARIABLE);
    java.time.Duration wait = w == null || w.isBlank() ? cp.gateway.GatewayConfig.DEFAULT_RATE_LIMIT_WAIT
        : java.time.Duration.ofMillis(EnvNumbers.positive(WAIT_VARIABLE, w, Long.MAX_VALUE, "a positive whole number"
            + " of milliseconds"));
    String v = env.get(VARIABLE);
    if (v == null || v.isBlank()) {
      return new Chain(Map.of(), List.of(), wait);
    }
    Map<String, ProviderSelection> routes = new LinkedHashMap<>();
    List<FallbackModel> models = new ArrayList<>();
    String[] entries = v.split(",");
    for (int i = 0; i < entries.length; i++) {
      String entry = entries[i].trim();
      int colon = entry.indexOf(':');
      if (colon <= 0) {
        throw new ConfigException(VARIABLE, VARIABLE + " entry " + (i + 1) + " '" + entry + "' is not provider:model"
            + " (e.g. " + VARIABLE + "=anthropic:claude-haiku-4-5,openai:gpt-4o-mini)");
      }
      String provider = entry.substring(0, colon).trim();
      String model = entry.substring(colon + 1).trim();
      try {
        ProviderSelection sel = ProviderFactory.forModel(env, worker, provider, null, null,
            model.isEmpty() ? null : model, VARIABLE + "[" + (i + 1) + "]");
        models.add(AgentModels.fallbackModel(sel, worker, model.isEmpty() ? null : model,
            "fallback" + AgentModels.FALLBACK_SEPARATOR + (i + 1), routes));
      } catch (ProviderConfigException e) {
        throw new ConfigException(VARIABLE, e.getMessage(), e);
      }
    }
    return new Chain(routes, models, wait);
  }
}
