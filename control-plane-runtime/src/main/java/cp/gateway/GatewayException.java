package cp.gateway;

import cp.model.FailureCode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A round trip failed after it was sent (or the breaker refused it); the EXCHANGE or
 * PROMPT_REJECTED record is already written. {@link #retryable()} and {@link #retryAfter()}
 * tell the activity how Temporal should retry. The message never contains a secret.
 */
public final class GatewayException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final FailureCode code;
  private final transient Duration retryAfter;
  private final String entryId;
  private final Integer attemptLimit;

  /** {@code retryAfter}: when to try again, or null for the activity's own backoff. */
  public GatewayException(FailureCode code, Duration retryAfter, String entryId, String message) {
    this(code, retryAfter, entryId, message, Optional.empty());
  }

  /** {@code attemptLimit}: how many attempts of the call are worth making in all, when the failure says. */
  public GatewayException(FailureCode code, Duration retryAfter, String entryId, String message,
      Optional<Integer> attemptLimit) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
    this.retryAfter = retryAfter;
    this.entryId = entryId;
    this.attemptLimit = attemptLimit.orElse(null);
  }

  /**
   * Whether attempt {@code attempt} (1-based) may be followed by another: the code is
   * {@link #retryable()} and the attempt is below the {@link #attemptLimit()}, if any.
   */
  public boolean retryableAfter(int attempt) {
    return retryable() && (attemptLimit == null || attempt < attemptLimit);
  }

  /** How many attempts of the call are worth making in all (an endpoint that cannot be reached), if limited. */
  public Optional<Integer> attemptLimit() {
    return Optional.ofNullable(attemptLimit);
  }

  /** The provider error kind's code (e.g. rate_limited), circuit_open, provider_failure or a ledger's. */
  public FailureCode code() {
    return code;
  }

  /** {@link #code()} as ledgers and Temporal failure types spell it. */
  public String errorCode() {
    return code.wire();
  }

  /** Whether the activity may try again: the code's {@link FailureCode#retryable()}. */
  public boolean retryable() {
    return code.retryable();
  }

  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The EXCHANGE or PROMPT_REJECTED entry that records the failure. */
  public String entryId() {
    return entryId;
  }
}
