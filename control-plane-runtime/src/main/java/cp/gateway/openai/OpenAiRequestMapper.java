package cp.gateway.openai;

import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns a provider-neutral {@link PromptRequest} into a chat-completions request body.
 *
 * <p>The neutral form follows Anthropic's blocks, so a few shapes change: the system prompt
 * becomes the first {@code system} message; an assistant's tool_use blocks become
 * {@code tool_calls} with JSON-string arguments; each tool_result block becomes its own
 * {@code tool} message, emitted before any text of the same user turn because OpenAI wants tool
 * messages right after the assistant message that called them. OpenAI has no error flag on tool
 * results, so an error result's content is prefixed with {@link #TOOL_ERROR_PREFIX}.
 */
final class OpenAiRequestMapper {
  static final String SYSTEM = "system";
  static final String TOOL = "tool";
  static final String FUNCTION = "function";
  /** Tells the model a tool result is an error, since the wire format has no flag for it. */
  static final String TOOL_ERROR_PREFIX = "Error: ";
  /** Joins the text blocks of one message, which OpenAI takes as a single string. */
  private static final String TEXT_SEPARATOR = "\n";

  private OpenAiRequestMapper() {}

  static WireRequest toWire(PromptRequest request, String model) {
    List<WireRequest.Message> messages = new ArrayList<>();
    if (!request.system().isBlank()) {
      messages.add(new WireRequest.Message(SYSTEM, request.system(), null, null));
    }
    for (Message m : request.messages()) {
      if (m.role().equals(Message.ASSISTANT)) {
        messages.add(assistant(m));
      } else {
        addUser(m, messages);
      }
    }
    List<WireRequest.Tool> tools = request.tools().isEmpty()
        ? null : request.tools().stream().map(OpenAiRequestMapper::tool).toList();
    return new WireRequest(model, messages, request.maxTokens(), request.temperature(), tools);
  }

  private static WireRequest.Message assistant(Message m) {
    List<WireRequest.ToolCall> calls = m.content().stream()
        .filter(ContentBlock::isToolUse)
        .map(b -> new WireRequest.ToolCall(b.id(), FUNCTION, new WireRequest.FunctionCall(b.name(), Json.write(b.input()))))
        .toList();
    String text = text(m);
    return new WireRequest.Message(Message.ASSISTANT, text.isEmpty() && !calls.isEmpty() ? null : text,
        calls.isEmpty() ? null : calls, null);
  }

  private static void addUser(Message m, List<WireRequest.Message> out) {
    for (ContentBlock b : m.content()) {
      if (b.isToolResult()) {
        String content = b.error() ? TOOL_ERROR_PREFIX + b.content() : b.content();
        out.add(new WireRequest.Message(TOOL, content, null, b.toolUseId()));
      }
    }
    boolean onlyToolResults = m.content().stream().allMatch(ContentBlock::isToolResult);
    if (!onlyToolResults) {
      out.add(new WireRequest.Message(Message.USER, text(m), null, null));
    }
  }

  private static String text(Message m) {
    return m.content().stream().filter(ContentBlock::isText).map(ContentBlock::text)
        .collect(Collectors.joining(TEXT_SEPARATOR));
  }

  private static WireRequest.Tool tool(ToolDefinition t) {
    return new WireRequest.Tool(FUNCTION, new WireRequest.Function(
        t.name(), t.description().isBlank() ? null : t.description(), t.inputSchema()));
  }
}
