package cp.gateway.openai;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.QuotaSignals;
import cp.gateway.Secret;
import cp.gateway.http.ErrorText;
import cp.gateway.http.HttpReply;
import cp.gateway.http.RetryAfter;
import cp.model.Json;
import java.io.IOException;
import java.time.Clock;

/**
 * Classifies a non-2xx chat-completions response.
 *
 * <p>OpenAI's error body is {@code {"error":{"message","type","param","code"}}}. Compatible
 * servers vary: llama.cpp sends a numeric code, Ollama's native API a bare string
 * ({@code {"error":"..."}}), vLLM a top-level {@code {"object":"error","message",...}}; all are
 * read. The status decides the kind; the body refines it: a 4xx whose type, code or message
 * speaks of quota or billing ({@code insufficient_quota} arrives as 429) is QUOTA_EXCEEDED, and
 * {@code rate_limit_exceeded} is RATE_LIMITED. An explicit code wins over message wording, since
 * OpenAI's free-tier rate-limit message links to the billing page.
 */
final class OpenAiErrorMapper {
  static final String RATE_LIMIT_CODE = "rate_limit_exceeded";

  private final Secret key;
  private final Clock clock;

  OpenAiErrorMapper(Secret key, Clock clock) {
    this.key = key;
    this.clock = clock;
  }

  ProviderException toException(HttpReply reply) {
    JsonNode error = errorNode(reply.body());
    String type = field(error, "type");
    String code = field(error, "code");
    String message = error != null && error.isTextual() ? error.asText() : field(error, "message");
    ProviderErrorKind kind = ProviderErrorKind.forStatus(reply.status());
    boolean clientError = reply.status() >= 400 && reply.status() <= 499;
    if (clientError && QuotaSignals.isQuotaCode(type, code)) {
      kind = ProviderErrorKind.QUOTA_EXCEEDED;
    } else if (RATE_LIMIT_CODE.equals(code)) {
      kind = ProviderErrorKind.RATE_LIMITED;
    } else if (clientError && QuotaSignals.isQuotaMessage(message)) {
      kind = ProviderErrorKind.QUOTA_EXCEEDED;
    }
    return ProviderException.builder(OpenAiProvider.ID, kind)
        .httpStatus(reply.status())
        .errorType(type)
        .errorCode(code)
        .message(message != null ? message : ErrorText.fallback(reply))
        .retryAfter(RetryAfter.from(reply.headers(), clock))
        .redacting(key)
        .build();
  }

  /** The {@code error} member (object or string), or the root when it carries the message itself. */
  private static JsonNode errorNode(String body) {
    try {
      JsonNode root = Json.MAPPER.readTree(body);
      if (root == null || !root.isObject()) {
        return null;
      }
      JsonNode error = root.get("error");
      if (error != null && (error.isObject() || error.isTextual())) {
        return error;
      }
      return root.has("message") ? root : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** A string or number field as text; absent or null gives null. */
  private static String field(JsonNode node, String name) {
    JsonNode v = node == null || !node.isObject() ? null : node.get(name);
    return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
  }
}
