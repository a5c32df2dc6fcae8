package cp.gateway;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prices one answered call from the usage the provider reported (issue 23): the model that
 * answered (else the one asked for) at its {@link PriceTable} price, cache tokens at their own
 * prices. A model with no price has an unknown cost, said once per provider and model in the log.
 */
final class ExchangeCost {
  private static final Logger LOG = LoggerFactory.getLogger(ExchangeCost.class);
  private final PriceTable prices;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  ExchangeCost(PriceTable prices) {
    this.prices = prices;
  }

  /** The cost in USD of {@code reply}, or empty when its model has no price. */
  Optional<Double> of(String providerId, String requestedModel, ProviderReply reply) {
    Optional<Pricing> p = pricing(providerId, reply.modelId()).or(() -> pricing(providerId, requestedModel));
    if (p.isEmpty()) {
      String model = reply.modelId() == null || reply.modelId().isBlank() ? requestedModel : reply.modelId();
      if (warned.add(providerId + "/" + model)) {
        LOG.warn("model {} of provider {} has no price (not in the price table, {} or {}); its calls' cost is"
            + " recorded as unknown", model, providerId, PriceTable.PRICES_FILE, PriceTable.PRICE_INPUT);
      }
      return Optional.empty();
    }
    return Optional.of(p.get().cost(reply.inputTokens(), reply.outputTokens(), reply.cacheReadTokens(),
        reply.cacheWriteTokens()));
  }

  /** The price of {@code model} on {@code providerId}, if it has one. */
  Optional<Pricing> pricing(String providerId, String model) {
    return prices.forModel(providerId, model);
  }
}
