package cp.agents;

import cp.contracts.AgentModel;
import cp.gateway.ProviderConfigException;
import cp.gateway.ProviderFactory;
import cp.gateway.ProviderSelection;
import cp.gateway.ProviderSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The models the defined agents name (issue 22 item 5), resolved once at worker start: each
 * definition's {@code model} (provider, name, base_url, api_key_env, each part defaulting to the
 * worker's configuration), {@code max_tokens} and {@code output_schema}.
 *
 * <p>An agent whose model reaches the worker's own endpoint with the worker's key shares the
 * worker's provider (only the model name may differ). Any other endpoint is a provider of its own
 * in the gateway, {@code <provider>@<AGENT_CLASS>} ({@code openai@WEATHER}), which EXCHANGE records
 * name; its key is read from the variable {@code api_key_env} names and never stored elsewhere.
 */
public final class AgentModels {
  /** Separates a provider type from the agent class in the id of an agent's own endpoint. */
  public static final String ROUTE_SEPARATOR = "@";
  /** Separates an agent class from a fallback model's place in its chain in a route id ({@code openai@WEATHER~1}). */
  public static final String FALLBACK_SEPARATOR = "~";

  private final Map<String, AgentModel> byClass;
  private final Map<String, ProviderSelection> routes;

  private AgentModels(Map<String, AgentModel> byClass, Map<String, ProviderSelection> routes) {
    this.byClass = Map.copyOf(byClass);
    this.routes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(routes));
  }

  /**
   * Resolves every definition's model against the worker's provider {@code worker}.
   *
   * @throws AgentDefinitionException naming each definition whose model cannot be reached (a key
   *     variable not set for a public API, a malformed URL)
   */
  static AgentModels of(List<CheckedDefinition> definitions, Map<String, String> env, ProviderSelection worker) {
    Map<String, AgentModel> byClass = new LinkedHashMap<>();
    Map<String, ProviderSelection> routes = new LinkedHashMap<>();
    List<DefinitionProblem> problems = new ArrayList<>();
    for (CheckedDefinition d : definitions) {
      AgentDefinition def = d.definition();
      AgentDefinition.Model m = def.model();
      Optional<String> route = Optional.empty();
      Optional<String> name = Optional.ofNullable(m == null ? null : m.name());
      if (m != null && (m.provider() != null || m.baseUrl() != null || m.apiKeyEnv() != null)) {
        try {
          ProviderSelection own = withUrlOrigin(ProviderFactory.forModel(env, worker, m.provider(), m.baseUrl(),
              m.apiKeyEnv(), m.name(), d.file() + ": model"), m.baseUrl(), "model.base_url in " + d.file());
          if (!sameEndpoint(own, worker)) {
            String id = own.type().id() + (own.isOffline() ? "" : ROUTE_SEPARATOR + def.agentClass());
            routes.put(id, own);
            route = Optional.of(id);
          }
          name = own.settings().map(ProviderSettings::defaultModel).or(() -> Optional.ofNullable(m.name()));
        } catch (ProviderConfigException e) {
          problems.add(new DefinitionProblem(d.file(), "model", e.getMessage(), false));
          continue;
        }
      }
      List<cp.model.FallbackModel> chain = new ArrayList<>();
      for (int i = 0; i < def.fallback().size(); i++) {
        AgentDefinition.Model f = def.fallback().get(i);
        String where = d.file() + ": fallback[" + i + "]";
        try {
          ProviderSelection sel = withUrlOrigin(ProviderFactory.forModel(env, worker, f.provider(), f.baseUrl(),
              f.apiKeyEnv(), f.name(), where), f.baseUrl(), "fallback[" + i + "].base_url in " + d.file());
          chain.add(fallbackModel(sel, worker, f.name(), def.agentClass() + FALLBACK_SEPARATOR + (i + 1), routes));
        } catch (ProviderConfigException e) {
          problems.add(new DefinitionProblem(d.file(), "fallback[" + i + "]", e.getMessage(), false));
        }
      }
      // Issue 23: an agent that names neither a model nor a fallback takes the worker's chain (CP_FALLBACK_MODELS).
      List<cp.model.FallbackModel> fallback = m == null && def.fallback().isEmpty() ? null : chain;
      byClass.put(def.agentClass(), new AgentModel(route, name, Optional.ofNullable(def.maxTokens()),
          Optional.ofNullable(def.outputSchema()), fallback));
    }
    if (!problems.isEmpty()) {
      throw new AgentDefinitionException(problems);
    }
    return new AgentModels(byClass, routes);
  }

  /**
   * {@code sel}, its base URL named by {@code origin} when a definition gave it ({@code baseUrl} not null), so
   * an endpoint that cannot be reached names the definition's key, not the provider's variable
   * ({@code OPENAI_BASE_URL}), which played no part.
   */
  private static ProviderSelection withUrlOrigin(ProviderSelection sel, String baseUrl, String origin) {
    if (baseUrl == null || sel.settings().isEmpty()) {
      return sel;
    }
    return ProviderSelection.http(sel.type(), sel.settings().get().withBaseUrlOrigin(origin), sel.reason());
  }

  /**
   * One model of a fallback chain: the worker's own provider when {@code sel} reaches it (only the
   * model differs), else a provider of its own, {@code <type>@<routeSuffix>}, added to {@code routes}.
   */
  public static cp.model.FallbackModel fallbackModel(ProviderSelection sel, ProviderSelection worker, String name,
      String routeSuffix, Map<String, ProviderSelection> routes) {
    String model = sel.settings().map(ProviderSettings::defaultModel).orElse(name);
    if (sameEndpoint(sel, worker)) {
      return new cp.model.FallbackModel(null, model);
    }
    String id = sel.type().id() + (sel.isOffline() ? "" : ROUTE_SEPARATOR + routeSuffix);
    routes.put(id, sel);
    return new cp.model.FallbackModel(id, model);
  }

  /** Whether {@code own} reaches the same provider the worker's configuration selects (same type, URL and key). */
  private static boolean sameEndpoint(ProviderSelection own, ProviderSelection worker) {
    if (own.type() != worker.type()) {
      return false;
    }
    if (own.isOffline()) {
      return true;
    }
    ProviderSettings a = own.settings().orElseThrow();
    ProviderSettings b = worker.settings().orElseThrow();
    return a.baseUrl().equals(b.baseUrl()) && a.apiKey().equals(b.apiKey());
  }

  /** The model of a defined class ({@link AgentModel#WORKER_DEFAULT} for a class it does not know). */
  public AgentModel of(String agentClass) {
    return byClass.getOrDefault(agentClass.toUpperCase(Locale.ROOT), AgentModel.WORKER_DEFAULT);
  }

  /** The providers the gateway needs beside the worker's, by id, in definition order. */
  public Map<String, ProviderSelection> routes() {
    return routes;
  }
}
