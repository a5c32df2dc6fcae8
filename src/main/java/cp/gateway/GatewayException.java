package cp.gateway;

import java.time.Duration;
import java.util.Optional;

/**
 * A round trip failed after it was sent (or the breaker refused it); the EXCHANGE or
 * PROMPT_REJECTED record is already written. {@link #retryable()} and {@link #retryAfter()}
 * tell the activity how Temporal should retry. The message never contains a secret.
 */
public final class GatewayException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String errorCode;
  private final boolean retryable;
  private final transient Duration retryAfter;
  private final String entryId;

  public GatewayException(String errorCode, boolean retryable, Duration retryAfter, String entryId, String message) {
    super(message);
    this.errorCode = errorCode;
    this.retryable = retryable;
    this.retryAfter = retryAfter;
    this.entryId = entryId;
  }

  /** Lower-case provider error kind (e.g. rate_limited) or circuit_open. */
  public String errorCode() {
    return errorCode;
  }

  public boolean retryable() {
    return retryable;
  }

  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The EXCHANGE or PROMPT_REJECTED entry that records the failure. */
  public String entryId() {
    return entryId;
  }
}
