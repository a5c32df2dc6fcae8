package cp.worker;

import cp.gateway.ForwardingProvider;
import cp.gateway.LlmProvider;
import cp.gateway.PriceTable;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderFactory;
import cp.gateway.ProviderSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The gateway's providers: the worker's own, and one per defined agent whose model is an endpoint
 * of its own ({@link cp.agents.AgentModels}), each under its route id ({@code openai@WEATHER}), so
 * EXCHANGE records and the circuit breakers tell them apart. Prices are by model ({@link PriceTable}),
 * whichever provider serves it.
 */
final class AgentProviders {
  private AgentProviders() {}

  /** The providers, the worker's first. */
  static List<LlmProvider> of(LlmProvider worker, Map<String, ProviderSelection> routes,
      Supplier<LlmProvider> offline) {
    return of(worker, routes, offline, Map.of());
  }

  /**
   * The providers, the worker's first.
   *
   * @param urlOrigins where a route's base URL came from when a definition gave it, by route id
   *     ({@code model.base_url in weather.yaml}): an endpoint that cannot be reached names that
   *     key, not the provider's variable ({@code OPENAI_BASE_URL}), which played no part
   */
  static List<LlmProvider> of(LlmProvider worker, Map<String, ProviderSelection> routes,
      Supplier<LlmProvider> offline, Map<String, String> urlOrigins) {
    List<LlmProvider> providers = new ArrayList<>(List.of(worker));
    ProviderFactory factory = new ProviderFactory(offline);
    routes.forEach((id, selection) -> {
      if (!id.equals(worker.id())) {
        providers.add(new Routed(id, factory.create(selection), urlOrigins.get(id)));
      }
    });
    return providers;
  }

  /**
   * Registers the keys of the agents' own endpoints on {@code masker} (issue 20 §1: masked in every
   * sink, whichever variable {@code api_key_env} named), as the worker's own key is.
   */
  static void registerKeys(cp.observability.SecretMasker masker, Map<String, ProviderSelection> routes) {
    routes.forEach((id, selection) -> selection.settings().filter(s -> s.apiKey().isPresent())
        .ifPresent(s -> masker.register("model key of " + id, s.apiKey().reveal())));
  }

  /** A provider known to the gateway under an agent's route id. */
  private static final class Routed extends ForwardingProvider {
    private final String id;
    /** Where its base URL came from, when a definition gave it; else null. */
    private final String urlOrigin;

    Routed(String id, LlmProvider delegate, String urlOrigin) {
      super(delegate);
      this.id = id;
      this.urlOrigin = urlOrigin;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public cp.gateway.ProviderReply send(cp.model.PromptRequest request) throws ProviderException {
      try {
        return super.send(request);
      } catch (ProviderException e) {
        throw namingTheUrlsOrigin(e);
      }
    }

    @Override
    public cp.gateway.ProviderReply stream(cp.model.PromptRequest request, cp.gateway.StreamSink sink)
        throws ProviderException {
      try {
        return streamThrough(request, sink);
      } catch (ProviderException e) {
        throw namingTheUrlsOrigin(e);
      }
    }

    /**
     * {@code e}, its advice to check the provider's base-URL variable ({@code OPENAI_BASE_URL})
     * naming instead the definition's key the URL came from, and the route's id instead of the
     * provider type's.
     */
    private ProviderException namingTheUrlsOrigin(ProviderException e) {
      String variable = "(" + e.providerId().toUpperCase(java.util.Locale.ROOT) + "_BASE_URL)";
      if (urlOrigin == null || e.kind() != ProviderErrorKind.PROVIDER_UNREACHABLE
          || !e.providerMessage().contains(variable)) {
        return e;
      }
      String message = e.providerMessage().replace(variable, "(" + urlOrigin + ")");
      if (message.startsWith(e.providerId() + " endpoint ")) {
        message = id + message.substring(e.providerId().length());
      }
      ProviderException.Builder b = ProviderException.builder(e.providerId(), e.kind()).httpStatus(e.httpStatus())
          .retryAfter(e.retryAfter()).errorType(e.errorType().orElse(null)).errorCode(e.errorCode().orElse(null))
          .message(message).cause(e.getCause());
      e.attemptLimit().ifPresent(b::attemptLimit);
      return b.build();
    }
  }
}
