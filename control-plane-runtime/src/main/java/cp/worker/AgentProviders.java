package cp.worker;

import cp.gateway.ForwardingProvider;
import cp.gateway.LlmProvider;
import cp.gateway.PriceTable;
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

  /**
   * The providers, the worker's first. An agent's own endpoint that cannot be reached names where its
   * base URL came from ({@code model.base_url in weather.yaml}): its settings carry it
   * ({@link cp.gateway.ProviderSettings#baseUrlOrigin()}, set by {@link cp.agents.AgentModels}).
   */
  static List<LlmProvider> of(LlmProvider worker, Map<String, ProviderSelection> routes,
      Supplier<LlmProvider> offline) {
    List<LlmProvider> providers = new ArrayList<>(List.of(worker));
    ProviderFactory factory = new ProviderFactory(offline);
    routes.forEach((id, selection) -> {
      if (!id.equals(worker.id())) {
        providers.add(new Routed(id, factory.create(selection)));
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

    Routed(String id, LlmProvider delegate) {
      super(delegate);
      this.id = id;
    }

    @Override
    public String id() {
      return id;
    }

    /** It changes nothing about a call: a streamed call streams through (not one piece, {@code send}'s way). */
    @Override
    public cp.gateway.ProviderReply stream(cp.model.PromptRequest request, cp.gateway.StreamSink sink)
        throws cp.gateway.ProviderException {
      return streamThrough(request, sink);
    }
  }
}
