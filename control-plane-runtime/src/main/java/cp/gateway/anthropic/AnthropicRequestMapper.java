package cp.gateway.anthropic;

import cp.model.ContentBlock;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;

/** Turns a provider-neutral {@link PromptRequest} into the Messages API request body. */
final class AnthropicRequestMapper {
  private AnthropicRequestMapper() {}

  static WireRequest toWire(PromptRequest request, String model) {
    return new WireRequest(
        model,
        request.maxTokens(),
        request.temperature(),
        request.system().isBlank() ? null : request.system(),
        request.messages().stream().map(AnthropicRequestMapper::message).toList(),
        request.tools().isEmpty() ? null : request.tools().stream().map(AnthropicRequestMapper::tool).toList());
  }

  private static WireRequest.Message message(Message m) {
    return new WireRequest.Message(m.role(), m.content().stream().map(AnthropicRequestMapper::block).toList());
  }

  private static WireRequest.Block block(ContentBlock b) {
    return switch (b.type()) {
      case ContentBlock.TEXT -> new WireRequest.Block(b.type(), b.text(), null, null, null, null, null, null);
      case ContentBlock.TOOL_USE -> new WireRequest.Block(b.type(), null, b.id(), b.name(), b.input(), null, null, null);
      case ContentBlock.TOOL_RESULT -> new WireRequest.Block(
          b.type(), null, null, null, null, b.toolUseId(), b.content(), b.error() ? Boolean.TRUE : null);
      default -> throw new IllegalArgumentException("unknown content block type '" + b.type() + "'");
    };
  }

  private static WireRequest.Tool tool(ToolDefinition t) {
    return new WireRequest.Tool(t.name(), t.description().isBlank() ? null : t.description(), t.inputSchema());
  }
}
