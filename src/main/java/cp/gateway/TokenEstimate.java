package cp.gateway;

import cp.model.ContentBlock;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;

/**
 * A provider-independent estimate of a prompt's input tokens, used only to refuse a call
 * the budget cannot pay for before it is sent; the debit always uses the provider's count.
 */
public final class TokenEstimate {
  /** English text averages about four characters per token for current tokenizers. */
  public static final int CHARS_PER_TOKEN = 4;

  private TokenEstimate() {}

  public static long ofChars(long chars) {
    return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  }

  public static long inputTokens(PromptRequest r) {
    long chars = r.system().length();
    for (Message m : r.messages()) {
      for (ContentBlock b : m.content()) {
        chars += b.text() != null ? b.text().length() : 0;
        chars += b.content() != null ? b.content().length() : 0;
        chars += b.input() != null ? b.input().toString().length() : 0;
      }
    }
    for (ToolDefinition t : r.tools()) {
      chars += t.name().length() + t.description().length() + t.inputSchema().toString().length();
    }
    return ofChars(chars);
  }
}
