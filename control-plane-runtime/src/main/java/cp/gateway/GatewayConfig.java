package cp.gateway;

import java.util.Map;
import java.util.Objects;

/**
 * How the gateway routes and accounts: the default provider and what each model's tokens cost
 * (the cost of every EXCHANGE, the figures in work orders and turn footers, the dollar budgets).
 */
public record GatewayConfig(String defaultProvider, PriceTable prices) {
  public GatewayConfig {
    Objects.requireNonNull(defaultProvider, "defaultProvider");
    Objects.requireNonNull(prices, "prices");
  }

  /** Each provider's tokens at one price, whatever the model (tests, embedders). */
  public GatewayConfig(String defaultProvider, Map<String, Pricing> byProvider) {
    this(defaultProvider, PriceTable.byProvider(byProvider));
  }
}
