package cp.gateway.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.QuotaSignals;
import cp.gateway.Secret;
import cp.gateway.http.ErrorText;
import cp.gateway.http.HttpReply;
import cp.gateway.http.RetryAfter;
import cp.model.Json;
import java.time.Clock;

/**
 * Classifies a non-2xx Messages API response.
 *
 * <p>Anthropic's error body is {@code {"type":"error","error":{"type":"rate_limit_error",
 * "message":"..."}}}. The status decides the kind ({@link ProviderErrorKind#forStatus}); the
 * body refines it: {@code overloaded_error} is OVERLOADED whatever the status (proxies may
 * re-code 529), and a 4xx whose type or message speaks of credit, billing or spend limits is
 * QUOTA_EXCEEDED, because Anthropic reports "Your credit balance is too low" as a plain 400.
 */
final class AnthropicErrorMapper {
  static final String OVERLOADED_TYPE = "overloaded_error";

  private final Secret key;
  private final Clock clock;

  AnthropicErrorMapper(Secret key, Clock clock) {
    this.key = key;
    this.clock = clock;
  }

  ProviderException toException(HttpReply reply) {
    JsonNode error = errorNode(reply.body());
    String type = Json.text(error, "type", null);
    String message = Json.text(error, "message", null);
    ProviderErrorKind kind = ProviderErrorKind.forStatus(reply.status());
    if (OVERLOADED_TYPE.equals(type)) {
      kind = ProviderErrorKind.OVERLOADED;
    } else if (reply.status() >= 400 && reply.status() <= 499 && QuotaSignals.indicateQuota(type, null, message)) {
      kind = ProviderErrorKind.QUOTA_EXCEEDED;
    }
    return ProviderException.builder(AnthropicProvider.ID, kind)
        .httpStatus(reply.status())
        .errorType(type)
        .message(message != null ? message : ErrorText.fallback(reply))
        .retryAfter(RetryAfter.from(reply.headers(), clock))
        .redacting(key)
        .build();
  }

  private static JsonNode errorNode(String body) {
    try {
      JsonNode root = Json.MAPPER.readTree(body);
      JsonNode error = root == null ? null : root.get("error");
      return error != null && error.isObject() ? error : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }
}
