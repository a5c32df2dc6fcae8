package cp.gateway;

import java.time.Duration;
import java.util.Objects;

/**
 * How quickly a provider's circuit opens and how long it stays open.
 *
 * @param failureThreshold consecutive provider-health failures that open the circuit
 * @param cooldown how long the circuit stays open before one trial call is let through
 */
public record CircuitBreakerConfig(int failureThreshold, Duration cooldown) {
  /**
   * Five in a row: one or two 5xx or timeouts are ordinary noise on a hosted LLM API and are
   * better absorbed by Temporal's retries; five consecutive ones mean the backend is down or
   * overloaded, and further calls only add load and burn the activity's retry budget.
   */
  public static final int DEFAULT_FAILURE_THRESHOLD = 5;

  /**
   * Thirty seconds: long enough for a provider's overload episode (529, 503) to ease, short
   * enough that a turn waiting on the retry delay still answers within a chat user's patience.
   */
  public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(30);

  /** The defaults above. */
  public static final CircuitBreakerConfig DEFAULTS =
      new CircuitBreakerConfig(DEFAULT_FAILURE_THRESHOLD, DEFAULT_COOLDOWN);

  public CircuitBreakerConfig {
    if (failureThreshold < 1) {
      throw new IllegalArgumentException(
          "circuit breaker failure_threshold must be >= 1, was " + failureThreshold);
    }
    Objects.requireNonNull(cooldown, "cooldown");
    if (cooldown.isNegative()) {
      throw new IllegalArgumentException("circuit breaker cooldown must not be negative, was " + cooldown);
    }
  }
}
