package cp.gateway.openai;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.http.ErrorReply;

/**
 * Where a chat-completions error body keeps its fields. OpenAI's is
 * {@code {"error":{"message","type","param","code"}}}; compatible servers vary: llama.cpp sends a
 * numeric code, Ollama's native API a bare string ({@code {"error":"..."}}), vLLM a top-level
 * {@code {"object":"error","message",...}}; all are read. The mapping to our vocabulary is
 * {@link ErrorReply}'s, the same for every API.
 */
final class OpenAiErrorBody {
  private OpenAiErrorBody() {}

  static ErrorReply.Body read(JsonNode root) {
    JsonNode error = root.get("error");
    if (error != null && error.isTextual()) {
      return new ErrorReply.Body(null, null, error.asText());
    }
    JsonNode node = error != null && error.isObject() ? error : root.has("message") ? root : null;
    if (node == null) {
      return ErrorReply.Body.NONE;
    }
    return new ErrorReply.Body(ErrorReply.field(node, "type"), ErrorReply.field(node, "code"),
        ErrorReply.field(node, "message"));
  }
}
