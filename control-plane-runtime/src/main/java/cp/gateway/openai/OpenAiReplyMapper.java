package cp.gateway.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.gateway.Secret;
import cp.gateway.TokenEstimate;
import cp.gateway.http.ErrorText;
import cp.gateway.http.HttpReply;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a 2xx chat completion into a {@link ProviderReply}, or INVALID_RESPONSE if it cannot.
 *
 * <p>Tolerates what OpenAI-compatible servers do differently: content as a string or as an
 * array of text parts; arguments as a JSON string, an object, empty, or not JSON at all (kept
 * as {@code {"_raw": "..."}} so the tool layer can report it to the model); tool calls without
 * an id (given {@code call_<index>}); {@code finish_reason: "stop"} next to tool calls (older
 * Ollama), which counts as tool_use; and no usage at all, which is estimated and flagged.
 */
final class OpenAiReplyMapper {
  private static final Logger log = LoggerFactory.getLogger(OpenAiReplyMapper.class);
  /** Where unparseable function arguments go, verbatim. */
  static final String RAW_ARGUMENTS = "_raw";
  /** Prefix of the ids given to tool calls that arrive without one. */
  static final String GENERATED_ID_PREFIX = "call_";

  private final Secret key;

  OpenAiReplyMapper(Secret key) {
    this.key = key;
  }

  ProviderReply toReply(HttpReply reply, PromptRequest request, String requestedModel) throws ProviderException {
    WireResponse wire = parse(reply);
    WireResponse.Choice choice = wire.choices().get(0);
    List<ContentBlock> content = new ArrayList<>();
    String text = text(choice.message().content());
    if (!text.isEmpty()) {
      content.add(ContentBlock.text(text));
    }
    List<WireResponse.ToolCall> calls = choice.message().toolCalls() == null ? List.of() : choice.message().toolCalls();
    for (int i = 0; i < calls.size(); i++) {
      content.add(toolUse(reply, calls.get(i), i));
    }
    String model = wire.model() == null || wire.model().isBlank() ? requestedModel : wire.model();
    String finish = finishReason(choice.finishReason(), !calls.isEmpty());
    WireResponse.Usage u = wire.usage();
    if (u == null || u.promptTokens() == null || u.completionTokens() == null) {
      log.warn("{} reply from model {} carried no usage; token counts are estimated at {} chars/token",
          OpenAiProvider.ID, model, TokenEstimate.CHARS_PER_TOKEN);
      return new ProviderReply(content, TokenEstimate.ofPrompt(request), TokenEstimate.ofContent(content),
          model, finish, true).withResponseId(wire.id());
    }
    long cached = u.promptTokensDetails() == null || u.promptTokensDetails().cachedTokens() == null ? 0
        : Math.min(u.promptTokens(), Math.max(0, u.promptTokensDetails().cachedTokens()));
    return new ProviderReply(content, u.promptTokens(), u.completionTokens(), model, finish, false)
        .withResponseId(wire.id()).withCache(cached, 0);
  }

  /** stop, content_filter -> stop; length -> length; tool_calls, function_call -> tool_use. */
  static String finishReason(String finishReason, boolean hasToolCalls) {
    if ("length".equals(finishReason)) {
      return ProviderReply.LENGTH;
    }
    if (hasToolCalls || "tool_calls".equals(finishReason) || "function_call".equals(finishReason)) {
      return ProviderReply.TOOL_USE;
    }
    return ProviderReply.STOP;
  }

  private WireResponse parse(HttpReply reply) throws ProviderException {
    WireResponse wire;
    try {
      wire = Json.MAPPER.readValue(reply.body(), WireResponse.class);
    } catch (JsonProcessingException e) {
      throw invalid(reply, "body is not a chat completion (" + e.getOriginalMessage() + ")");
    }
    if (wire == null || wire.choices() == null || wire.choices().isEmpty()) {
      throw invalid(reply, "response has no choices");
    }
    if (wire.choices().get(0) == null || wire.choices().get(0).message() == null) {
      throw invalid(reply, "choices[0] has no message");
    }
    return wire;
  }

  private ContentBlock toolUse(HttpReply reply, WireResponse.ToolCall call, int index) throws ProviderException {
    if (call == null || call.function() == null || call.function().name() == null || call.function().name().isBlank()) {
      throw invalid(reply, "tool_calls[" + index + "] has no function name");
    }
    String id = call.id() == null || call.id().isBlank() ? GENERATED_ID_PREFIX + index : call.id();
    return ContentBlock.toolUse(id, call.function().name(), arguments(call.function().arguments()));
  }

  /** A JSON object from whatever the server sent as arguments. */
  static JsonNode arguments(JsonNode raw) {
    if (raw == null || raw.isNull()) {
      return Json.object();
    }
    if (raw.isObject()) {
      return raw;
    }
    String text = raw.isTextual() ? raw.asText() : raw.toString();
    if (text.isBlank()) {
      return Json.object();
    }
    try {
      JsonNode parsed = Json.MAPPER.readTree(text);
      if (parsed != null && parsed.isObject()) {
        return parsed;
      }
    } catch (JsonProcessingException e) {
      // fall through: the model produced invalid JSON; keep it for the tool layer to report
    }
    return Json.object().put(RAW_ARGUMENTS, text);
  }

  /** A string, or the concatenated text parts of an array; null means no text. */
  private static String text(JsonNode content) {
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder sb = new StringBuilder();
    if (content.isArray()) {
      content.forEach(part -> sb.append(Json.text(part, "text", "")));
    }
    return sb.toString();
  }

  private ProviderException invalid(HttpReply reply, String why) {
    return ErrorText.invalidResponse(OpenAiProvider.ID, reply, why, key);
  }
}
