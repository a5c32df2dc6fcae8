package cp.gateway;

import cp.model.FailureCode;

/**
 * Why a provider call failed, and whether trying the same call again could succeed.
 *
 * <p>Each kind is a {@link FailureCode} (its lower-cased name), which decides whether it is
 * worth another attempt: the gateway turns a retryable kind into a retryable Temporal failure
 * (honouring {@link ProviderException#retryAfter()}) and every other kind into a non-retryable one.
 */
public enum ProviderErrorKind {
  /** HTTP 429: too many requests or tokens per minute; wait and retry. */
  RATE_LIMITED(FailureCode.RATE_LIMITED),
  /** HTTP 529 (Anthropic): the service is overloaded; wait and retry. */
  OVERLOADED(FailureCode.OVERLOADED),
  /** HTTP 5xx other than 529: the provider failed; retry. */
  SERVER_ERROR(FailureCode.SERVER_ERROR),
  /** Connected, but no (complete) response within the read or call timeout; retry. */
  TIMEOUT(FailureCode.TIMEOUT),
  /** The connection broke after it was made (reset, closed), or every pooled connection was dead. */
  CONNECTION(FailureCode.CONNECTION),
  /**
   * No connection could be made (refused, unknown host, no route, connect timeout, TLS
   * handshake): nothing was sent. Worth only a short retry budget ({@code CP_HTTP_CONNECT_ATTEMPTS}).
   */
  PROVIDER_UNREACHABLE(FailureCode.PROVIDER_UNREACHABLE),
  /** HTTP 2xx whose body could not be understood; a retry may get a well-formed body. */
  INVALID_RESPONSE(FailureCode.INVALID_RESPONSE),
  /** HTTP 400 (and 422): the request is malformed; fix the request. */
  BAD_REQUEST(FailureCode.BAD_REQUEST),
  /** HTTP 401: the API key is missing or wrong; fix the key. */
  AUTHENTICATION(FailureCode.AUTHENTICATION),
  /** HTTP 403: the key may not use this model or resource. */
  PERMISSION(FailureCode.PERMISSION),
  /** HTTP 404: unknown model or endpoint; fix the model name or base URL. */
  NOT_FOUND(FailureCode.NOT_FOUND),
  /** HTTP 413: the request exceeds the provider's size limit. */
  REQUEST_TOO_LARGE(FailureCode.REQUEST_TOO_LARGE),
  /** Spend limit, credit balance or quota exhausted, whatever the status; add credit. */
  QUOTA_EXCEEDED(FailureCode.QUOTA_EXCEEDED),
  /**
   * A 2xx reply longer than {@code CP_HTTP_MAX_REPLY_BYTES}: it was generated and paid for, so
   * sending the request again would pay for the same reply again; it is not read further.
   */
  REPLY_TOO_LARGE(FailureCode.REPLY_TOO_LARGE),
  /** Any other status (a redirect, 409, 418, ...): nothing suggests a retry would help. */
  UNEXPECTED_STATUS(FailureCode.UNEXPECTED_STATUS);

  /** Anthropic's status for overloaded_error; not an IANA code, so java.net has no constant. */
  public static final int HTTP_OVERLOADED = 529;
  /** FastAPI-based servers (older vLLM) answer schema violations with 422. */
  public static final int HTTP_UNPROCESSABLE = 422;

  private final FailureCode code;

  ProviderErrorKind(FailureCode code) {
    this.code = code;
  }

  /** The failure code this kind is recorded and thrown as, e.g. {@code rate_limited}. */
  public FailureCode code() {
    return code;
  }

  /** True when the same request may succeed if sent again later. */
  public boolean retryable() {
    return code.retryable();
  }

  /**
   * The kind an HTTP status means on its own, before the provider's error body refines it
   * (for example a 429 whose body says insufficient_quota becomes {@link #QUOTA_EXCEEDED}).
   */
  public static ProviderErrorKind forStatus(int status) {
    return switch (status) {
      case 400, HTTP_UNPROCESSABLE -> BAD_REQUEST;
      case 401 -> AUTHENTICATION;
      case 402 -> QUOTA_EXCEEDED;
      case 403 -> PERMISSION;
      case 404 -> NOT_FOUND;
      case 408 -> TIMEOUT;
      case 413 -> REQUEST_TOO_LARGE;
      case 429 -> RATE_LIMITED;
      case HTTP_OVERLOADED -> OVERLOADED;
      default -> status >= 500 && status <= 599 ? SERVER_ERROR : UNEXPECTED_STATUS;
    };
  }

  /** Failures that say the provider is unhealthy (they count against its circuit breaker); a 400 or 401 says the request or the key is wrong. */
  public boolean countsAgainstHealth() {
    return switch (this) {
      case RATE_LIMITED, OVERLOADED, SERVER_ERROR, TIMEOUT, CONNECTION, PROVIDER_UNREACHABLE, INVALID_RESPONSE -> true;
      default -> false;
    };
  }
}
