package cp.model;

/**
 * The one rough token count of text, for budgets: four characters per token, the usual rule of
 * thumb for English text with BPE tokenizers. An estimate for reserving before a call, never a
 * bill: the debit always uses the provider's reported count. The gateway's prompt estimate and
 * the session's up-front check of a turn (issue 20) both count with it.
 */
public final class TokenEstimates {
  /** Average characters per token of English text under common BPE tokenizers. */
  public static final int CHARS_PER_TOKEN = 4;

  private TokenEstimates() {}

  /** Estimated tokens of {@code chars} characters of text. */
  public static long ofChars(long chars) {
    return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  }

  /** Estimated tokens of {@code text}; 0 for null. */
  public static long ofText(String text) {
    return text == null ? 0 : ofChars(text.length());
  }
}
