package cp.gateway.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.http.ErrorReply;

/**
 * Where the Messages API's error body keeps its fields:
 * {@code {"type":"error","error":{"type":"rate_limit_error","message":"..."}}}. The mapping to
 * our vocabulary is {@link ErrorReply}'s, the same for every API.
 */
final class AnthropicErrorBody {
  private AnthropicErrorBody() {}

  static ErrorReply.Body read(JsonNode root) {
    JsonNode error = root.get("error");
    if (error == null || !error.isObject()) {
      return ErrorReply.Body.NONE;
    }
    return new ErrorReply.Body(ErrorReply.field(error, "type"), null, ErrorReply.field(error, "message"));
  }
}
