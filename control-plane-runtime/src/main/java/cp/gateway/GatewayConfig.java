package cp.gateway;

import java.util.Map;
import java.util.Objects;

/**
 * How the gateway routes and accounts: the default provider and the price of each provider's
 * tokens (for the cost figures in work orders and turn footers).
 */
public record GatewayConfig(String defaultProvider, Map<String, Pricing> prices) {
  public GatewayConfig {
    Objects.requireNonNull(defaultProvider, "defaultProvider");
    prices = Map.copyOf(prices);
  }

  public Pricing pricing(String providerId) {
    return prices.getOrDefault(providerId, Pricing.FREE);
  }
}
