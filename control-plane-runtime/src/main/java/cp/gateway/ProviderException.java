package cp.gateway;

import cp.model.RootCause;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A classified failure of one provider round trip.
 *
 * <p>The message reads as one line: provider, HTTP status, kind, whether it is retryable, the
 * provider's error type and its own message, e.g. {@code anthropic: HTTP 429 RATE_LIMITED
 * (retryable, rate_limit_error): Number of request tokens has exceeded ... [retry after 30s]}.
 * Every piece of text that came from outside (the provider's message, a body snippet, a cause's
 * message) passes through {@link Secret#redact} before it is stored, because this exception
 * ends up in Temporal history and in ledgers, and a provider may echo the key back.
 */
public final class ProviderException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Longest provider message kept: enough for any real JSON error, short of a proxy's HTML page. */
  public static final int MAX_PROVIDER_MESSAGE_CHARS = 500;

  private final String providerId;
  private final ProviderErrorKind kind;
  private final int httpStatus;
  private final Duration retryAfter;
  private final String errorType;
  private final String errorCode;
  private final String providerMessage;
  private final int attemptLimit;

  private ProviderException(Builder b, String providerMessage, Throwable cause) {
    super(format(b, providerMessage), cause);
    this.providerId = b.providerId;
    this.kind = b.kind;
    this.httpStatus = b.httpStatus;
    this.retryAfter = b.retryAfter;
    this.errorType = b.errorType;
    this.errorCode = b.errorCode;
    this.providerMessage = providerMessage;
    this.attemptLimit = b.attemptLimit;
  }

  public static Builder builder(String providerId, ProviderErrorKind kind) {
    return new Builder(providerId, kind);
  }

  public String providerId() {
    return providerId;
  }

  public ProviderErrorKind kind() {
    return kind;
  }

  public boolean retryable() {
    return kind.retryable();
  }

  /** The HTTP status, or 0 when no response arrived (timeout, connection failure, local check). */
  public int httpStatus() {
    return httpStatus;
  }

  /** How long the provider asked us to wait before retrying, when it said. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The provider's error type, e.g. {@code rate_limit_error} or {@code insufficient_quota}. */
  public Optional<String> errorType() {
    return Optional.ofNullable(errorType);
  }

  /** The provider's error code (OpenAI-compatible servers), e.g. {@code rate_limit_exceeded}. */
  public Optional<String> errorCode() {
    return Optional.ofNullable(errorCode);
  }

  /**
   * How many attempts of the same call are worth making in all when this is the failure (a
   * connection that could not be made: {@code CP_HTTP_CONNECT_ATTEMPTS}); empty: the retry
   * policy decides alone.
   */
  public Optional<Integer> attemptLimit() {
    return attemptLimit > 0 ? Optional.of(attemptLimit) : Optional.empty();
  }

  /** The provider's own message (redacted, truncated), or our description when there was none. */
  public String providerMessage() {
    return providerMessage;
  }

  private static String format(Builder b, String providerMessage) {
    StringBuilder sb = new StringBuilder(b.providerId).append(": ");
    if (b.httpStatus > 0) {
      sb.append("HTTP ").append(b.httpStatus).append(' ');
    }
    sb.append(b.kind.name()).append(" (").append(b.kind.retryable() ? "retryable" : "not retryable");
    if (b.kind.retryable() && b.attemptLimit > 0) {
      sb.append(" up to ").append(b.attemptLimit).append(b.attemptLimit == 1 ? " attempt" : " attempts");
    }
    if (b.errorType != null) {
      sb.append(", ").append(b.errorType);
    }
    if (b.errorCode != null && !b.errorCode.equals(b.errorType)) {
      sb.append(", code ").append(b.errorCode);
    }
    sb.append("): ").append(providerMessage);
    if (b.retryAfter != null) {
      sb.append(" [retry after ").append(b.retryAfter.toMillis()).append(" ms]");
    }
    return sb.toString();
  }

  /** Collects the parts; {@link #build} redacts every outside string with the given secret. */
  public static final class Builder {
    private final String providerId;
    private final ProviderErrorKind kind;
    private int httpStatus;
    private Duration retryAfter;
    private String errorType;
    private String errorCode;
    private String message = "";
    private Throwable cause;
    private Secret secret = Secret.NONE;
    private int attemptLimit;

    private Builder(String providerId, ProviderErrorKind kind) {
      this.providerId = Objects.requireNonNull(providerId, "providerId");
      this.kind = Objects.requireNonNull(kind, "kind");
    }

    public Builder httpStatus(int status) {
      this.httpStatus = status;
      return this;
    }

    public Builder retryAfter(Optional<Duration> delay) {
      this.retryAfter = delay.orElse(null);
      return this;
    }

    public Builder errorType(String type) {
      this.errorType = blankToNull(type);
      return this;
    }

    public Builder errorCode(String code) {
      this.errorCode = blankToNull(code);
      return this;
    }

    /** The provider's own words, or our description of what happened. */
    public Builder message(String text) {
      this.message = text == null ? "" : text;
      return this;
    }

    /** The underlying I/O failure. Kept as a cause only through a redacted copy of its message. */
    public Builder cause(Throwable t) {
      this.cause = t;
      return this;
    }

    /** At most this many attempts of the call are worth making (see {@link ProviderException#attemptLimit()}). */
    public Builder attemptLimit(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("attempt limit must be at least 1, was " + attempts);
      }
      this.attemptLimit = attempts;
      return this;
    }

    /** The key to scrub from every string before it is stored. */
    public Builder redacting(Secret key) {
      this.secret = Objects.requireNonNull(key, "key");
      return this;
    }

    public ProviderException build() {
      errorType = secret.redact(errorType);
      errorCode = secret.redact(errorCode);
      String text = truncate(collapse(secret.redact(message)));
      return new ProviderException(this, text.isEmpty() ? "(no message)" : text, safeCause());
    }

    /**
     * The cause, unless its message chain contains the key: then a redacted stand-in of the same
     * class name, because a cause's message is serialized into history just like ours.
     */
    private Throwable safeCause() {
      if (cause == null || !secret.isPresent()) {
        return cause;
      }
      if (RootCause.chain(cause).anyMatch(t -> String.valueOf(t.getMessage()).contains(secret.reveal()))) {
        return new RedactedCause(cause.getClass().getName() + ": " + secret.redact(cause.getMessage()));
      }
      return cause;
    }

    private static String blankToNull(String s) {
      return s == null || s.isBlank() ? null : s;
    }

    private static String collapse(String s) {
      return s.replaceAll("\\s+", " ").strip();
    }

    private static String truncate(String s) {
      return s.length() <= MAX_PROVIDER_MESSAGE_CHARS ? s : s.substring(0, MAX_PROVIDER_MESSAGE_CHARS) + "…";
    }
  }

  /** Stands in for a cause whose message had to be redacted. */
  static final class RedactedCause extends Exception {
    private static final long serialVersionUID = 1L;

    RedactedCause(String message) {
      super(message);
    }
  }
}
