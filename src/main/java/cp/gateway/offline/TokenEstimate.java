package cp.gateway.offline;

import cp.model.ContentBlock;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import java.util.List;

/**
 * A deterministic token count for the offline model: characters divided by four, rounded up.
 *
 * <p>The offline model has no tokenizer, yet budgets and EXCHANGE records need numbers that
 * behave like real ones: they grow with the prompt, never reach zero, and are the same on
 * every replay.
 */
public final class TokenEstimate {
  /** The usual rule of thumb for English text under BPE tokenizers. */
  public static final int CHARS_PER_TOKEN = 4;

  private TokenEstimate() {}

  /** Tokens for {@code chars} characters, at least one. */
  public static long ofChars(long chars) {
    return Math.max(1, (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
  }

  /** The prompt: system text, every message block (text, tool arguments, tool results) and the tool definitions' JSON. */
  public static long input(PromptRequest request) {
    long chars = request.system().length();
    for (Message m : request.messages()) {
      chars += blockChars(m.content());
    }
    for (ToolDefinition t : request.tools()) {
      chars += t.name().length() + t.description().length() + t.inputSchema().toString().length();
    }
    return ofChars(chars);
  }

  /** The reply: text, or the tool names and arguments of tool_use blocks. */
  public static long output(List<ContentBlock> content) {
    return ofChars(blockChars(content));
  }

  private static long blockChars(List<ContentBlock> blocks) {
    long chars = 0;
    for (ContentBlock b : blocks) {
      if (b.isText()) {
        chars += b.text().length();
      } else if (b.isToolUse()) {
        chars += b.name().length() + b.input().toString().length();
      } else if (b.isToolResult()) {
        chars += b.content().length();
      }
    }
    return chars;
  }
}
