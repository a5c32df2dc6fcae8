package cp.gateway;

import cp.model.FallbackModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the gateway routes and accounts: the default provider, what each model's tokens cost (the
 * cost of every EXCHANGE, the figures in work orders and turn footers, the dollar budgets), and
 * (issue 23) the fallback chain of requests that bring none, and the longest rate-limit wait a
 * call sits out on its own model before it falls back.
 */
public record GatewayConfig(String defaultProvider, PriceTable prices, List<FallbackModel> fallback,
    Duration rateLimitWait) {
  /**
   * Two seconds: a rate limit that clears this soon is cheaper to wait out on the same model (its
   * retry follows Retry-After); a longer one is better spent on the next model.
   */
  public static final Duration DEFAULT_RATE_LIMIT_WAIT = Duration.ofSeconds(2);

  public GatewayConfig {
    Objects.requireNonNull(defaultProvider, "defaultProvider");
    Objects.requireNonNull(prices, "prices");
    fallback = fallback == null ? List.of() : List.copyOf(fallback);
    rateLimitWait = rateLimitWait == null ? DEFAULT_RATE_LIMIT_WAIT : rateLimitWait;
  }

  /** No fallback chain. */
  public GatewayConfig(String defaultProvider, PriceTable prices) {
    this(defaultProvider, prices, List.of(), DEFAULT_RATE_LIMIT_WAIT);
  }

  /** Each provider's tokens at one price, whatever the model (tests, embedders). */
  public GatewayConfig(String defaultProvider, Map<String, Pricing> byProvider) {
    this(defaultProvider, PriceTable.byProvider(byProvider));
  }
}
