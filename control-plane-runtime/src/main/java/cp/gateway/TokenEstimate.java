package cp.gateway;

import cp.model.ContentBlock;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import java.util.List;

/**
 * A rough token count: for servers that report no usage (some local OpenAI-compatible servers),
 * for the gateway's refusal of a prompt the budget cannot pay for, and for attention's context
 * budget. The debit always uses the provider's reported count when there is one.
 *
 * <p>Four characters per token is the usual rule of thumb for English text with BPE tokenizers;
 * it is an estimate for budgets, never a bill, and replies built from it say so
 * ({@link ProviderReply#usageEstimated()}).
 */
public final class TokenEstimate {
  /** Average characters per token of English text under common BPE tokenizers (one definition, in the api). */
  public static final int CHARS_PER_TOKEN = cp.model.TokenEstimates.CHARS_PER_TOKEN;

  private TokenEstimate() {}

  /** Estimated prompt tokens: system, every message block and the tool definitions. */
  public static long ofPrompt(PromptRequest request) {
    long chars = request.system().length();
    for (Message m : request.messages()) {
      chars += characters(m.content());
    }
    for (ToolDefinition t : request.tools()) {
      chars += t.name().length() + t.description().length() + t.inputSchema().toString().length();
    }
    return ofChars(chars);
  }

  /** Estimated completion tokens of the reply blocks. */
  public static long ofContent(List<ContentBlock> content) {
    return ofChars(characters(content));
  }

  private static long characters(List<ContentBlock> blocks) {
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

  /** Estimated tokens of {@code chars} characters of text. */
  public static long ofChars(long chars) {
    return cp.model.TokenEstimates.ofChars(chars);
  }
}
