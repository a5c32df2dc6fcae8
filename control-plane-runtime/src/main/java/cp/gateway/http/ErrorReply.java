package cp.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.QuotaSignals;
import cp.gateway.Secret;
import cp.model.Json;
import java.time.Clock;
import java.util.Objects;

/**
 * The one mapping from a provider's non-2xx reply to our error vocabulary, for every HTTP API:
 * the status decides the kind ({@link ProviderErrorKind#forStatus}), what the body says refines
 * it, and the result is a {@link ProviderException} with the provider's type, code and message
 * (the key redacted) and its {@code retry-after}. Each API says only where its body keeps those
 * three fields ({@link BodyReader}). Thread-safe.
 *
 * <p>Refinements, in order: an {@code overloaded_error} type is OVERLOADED whatever the status
 * (proxies re-code Anthropic's 529); a 4xx whose type or code is a quota code is QUOTA_EXCEEDED
 * ({@code insufficient_quota} arrives as 429); a {@code rate_limit_exceeded} code is RATE_LIMITED;
 * a 4xx whose message speaks of credit, billing or spend limits is QUOTA_EXCEEDED (Anthropic
 * reports "Your credit balance is too low" as a plain 400). An explicit code wins over message
 * wording, since OpenAI's free-tier rate-limit message links to the billing page.
 */
public final class ErrorReply {
  /** Anthropic's error type for an overloaded service. */
  public static final String OVERLOADED_TYPE = "overloaded_error";
  /** OpenAI's error code for a rate limit (as opposed to an exhausted quota). */
  public static final String RATE_LIMIT_CODE = "rate_limit_exceeded";

  /** What an error body says: the provider's error type, code and message, each null when absent. */
  public record Body(String type, String code, String message) {
    /** Nothing readable. */
    public static final Body NONE = new Body(null, null, null);
  }

  /** Where one API's error body keeps its type, code and message. */
  @FunctionalInterface
  public interface BodyReader {
    /** The fields of {@code root} (the parsed body, an object); {@link Body#NONE} when it has none. */
    Body read(JsonNode root);
  }

  private final String providerId;
  private final Secret key;
  private final Clock clock;
  private final BodyReader reader;

  /** {@code clock} turns an HTTP-date {@code retry-after} into a delay. */
  public ErrorReply(String providerId, Secret key, Clock clock, BodyReader reader) {
    this.providerId = Objects.requireNonNull(providerId, "providerId");
    this.key = Objects.requireNonNull(key, "key");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /** The classified failure for a non-2xx {@code reply}. */
  public ProviderException toException(HttpReply reply) {
    Body body = read(reply.body());
    return ProviderException.builder(providerId, kind(reply.status(), body))
        .httpStatus(reply.status())
        .errorType(body.type())
        .errorCode(body.code())
        .message(body.message() != null ? body.message() : ErrorText.fallback(reply))
        .retryAfter(RetryAfter.from(reply.headers(), clock))
        .redacting(key)
        .build();
  }

  /** The kind of an error reply with {@code status} whose body says {@code body} (see the class comment). */
  public static ProviderErrorKind kind(int status, Body body) {
    boolean clientError = status >= 400 && status <= 499;
    if (OVERLOADED_TYPE.equals(body.type())) {
      return ProviderErrorKind.OVERLOADED;
    }
    if (clientError && QuotaSignals.isQuotaCode(body.type(), body.code())) {
      return ProviderErrorKind.QUOTA_EXCEEDED;
    }
    if (RATE_LIMIT_CODE.equals(body.code())) {
      return ProviderErrorKind.RATE_LIMITED;
    }
    if (clientError && QuotaSignals.isQuotaMessage(body.message())) {
      return ProviderErrorKind.QUOTA_EXCEEDED;
    }
    return ProviderErrorKind.forStatus(status);
  }

  private Body read(String text) {
    try {
      JsonNode root = Json.MAPPER.readTree(text);
      return root == null || !root.isObject() ? Body.NONE : reader.read(root);
    } catch (java.io.IOException e) {
      return Body.NONE;
    }
  }

  /** A string or number member as text; absent, null or a container gives null. */
  public static String field(JsonNode node, String name) {
    JsonNode v = node == null || !node.isObject() ? null : node.get(name);
    return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
  }
}
