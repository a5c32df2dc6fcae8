package cp.tools;

/**
 * Text cut to a length for messages and tool output: a model's context is a budget, and an
 * argument or a ledger field must not be able to flood it.
 */
final class BoundedText {
  private BoundedText() {}

  /**
   * {@code text} with control characters escaped (as Java unicode escapes) and at most {@code max}
   * characters kept, then {@code ...}; used to quote caller input in messages.
   */
  static String quote(String text, int max) {
    if (text == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    int i = 0;
    for (; i < text.length() && sb.length() < max; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return i < text.length() ? sb + "..." : sb.toString();
  }

  /** The first {@code max} characters of {@code text}, then a note of how long it was. */
  static String cut(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    return text.substring(0, max) + "...[" + text.length() + " chars]";
  }

  /** The first line of a message, bounded; for exception messages in tool results. */
  static String firstLine(String text, int max) {
    if (text == null || text.isBlank()) {
      return "";
    }
    int nl = text.indexOf('\n');
    return quote(nl < 0 ? text : text.substring(0, nl), max);
  }
}
