package cp.gateway.anthropic;

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
 * Turns a 2xx Messages API body into a {@link ProviderReply}, or INVALID_RESPONSE if it cannot.
 *
 * <p>Only text and tool_use blocks are kept; other block types (thinking, server tools) are
 * skipped, since the gateway neither requests nor stores them. Input tokens include the prompt
 * cache's creation and read tokens, because the budget pays for all of them.
 */
final class AnthropicReplyMapper {
  private static final Logger log = LoggerFactory.getLogger(AnthropicReplyMapper.class);

  private final Secret key;

  AnthropicReplyMapper(Secret key) {
    this.key = key;
  }

  ProviderReply toReply(HttpReply reply, PromptRequest request, String requestedModel) throws ProviderException {
    WireResponse wire = parse(reply);
    List<ContentBlock> content = new ArrayList<>();
    for (JsonNode node : wire.content()) {
      String type = Json.text(node, "type", "");
      if (type.equals(ContentBlock.TEXT)) {
        content.add(ContentBlock.text(required(reply, node, "text")));
      } else if (type.equals(ContentBlock.TOOL_USE)) {
        content.add(ContentBlock.toolUse(required(reply, node, "id"), required(reply, node, "name"), node.get("input")));
      } else {
        log.debug("{} reply: skipping content block of type '{}'", AnthropicProvider.ID, type);
      }
    }
    String model = wire.model() == null || wire.model().isBlank() ? requestedModel : wire.model();
    String finish = finishReason(wire.stopReason(), content);
    WireResponse.Usage u = wire.usage();
    if (u == null || u.inputTokens() == null || u.outputTokens() == null) {
      log.warn("{} reply from model {} carried no usage; token counts are estimated at {} chars/token",
          AnthropicProvider.ID, model, TokenEstimate.CHARS_PER_TOKEN);
      return new ProviderReply(content, TokenEstimate.ofPrompt(request), TokenEstimate.ofContent(content),
          model, finish, true).withResponseId(wire.id());
    }
    long input = u.inputTokens() + orZero(u.cacheCreationInputTokens()) + orZero(u.cacheReadInputTokens());
    return new ProviderReply(content, input, u.outputTokens(), model, finish, false).withResponseId(wire.id())
        .withCache(orZero(u.cacheReadInputTokens()), orZero(u.cacheCreationInputTokens()));
  }

  /** end_turn, stop_sequence, refusal, pause_turn -> stop; max_tokens, context window -> length. */
  static String finishReason(String stopReason, List<ContentBlock> content) {
    if (stopReason == null) {
      return content.stream().anyMatch(ContentBlock::isToolUse) ? ProviderReply.TOOL_USE : ProviderReply.STOP;
    }
    return switch (stopReason) {
      case "tool_use" -> ProviderReply.TOOL_USE;
      case "max_tokens", "model_context_window_exceeded" -> ProviderReply.LENGTH;
      default -> finishReason(null, content);
    };
  }

  private WireResponse parse(HttpReply reply) throws ProviderException {
    WireResponse wire;
    try {
      wire = Json.MAPPER.readValue(reply.body(), WireResponse.class);
    } catch (JsonProcessingException e) {
      throw invalid(reply, "body is not a Messages API response (" + e.getOriginalMessage() + ")");
    }
    if (wire == null || wire.content() == null) {
      throw invalid(reply, "response has no content array");
    }
    return wire;
  }

  private String required(HttpReply reply, JsonNode block, String field) throws ProviderException {
    JsonNode v = block.get(field);
    if (v == null || !v.isTextual()) {
      throw invalid(reply, Json.text(block, "type", "?") + " block without '" + field + "'");
    }
    return v.asText();
  }

  private ProviderException invalid(HttpReply reply, String why) {
    return ErrorText.invalidResponse(AnthropicProvider.ID, reply, why, key);
  }

  private static long orZero(Long n) {
    return n == null ? 0 : n;
  }
}
