package cp.model;

/**
 * Text from outside (a model's tool arguments, a file's lines, an approver's reason) made safe to
 * show a person who must judge it (issue 20): control characters other than newline, Unicode
 * format characters (the bidi overrides and isolates U+202A–U+202E and U+2066–U+2069, zero-width
 * characters, U+FEFF, tag characters), line and paragraph separators and unpaired surrogates are
 * shown as {@code \u202E} (or {@code \U000E0001} above the BMP) instead of acting on the terminal
 * or reordering what the person reads. A right-to-left override in a path can otherwise make
 * {@code evil\u202Etxt.sh} look like {@code evilhs.txt}.
 *
 * <p>Backslashes are left alone, so escaping is idempotent (escaped text passes through again
 * unchanged) and the summary's own layout stays readable; the cost is that a literal
 * {@code \u202E} in the text looks like an escaped character, which is harmless to show.
 * Shared by the approval records and the CLI.
 */
public final class DisplayText {
  private DisplayText() {}

  /** Which characters a form of escaping shows as escapes: a code point, and whether it is an unpaired surrogate. */
  private interface Escaped {
    boolean test(int cp, boolean unpaired);
  }

  /** {@code text} with every character that could act on the display escaped; null stays null. */
  public static String escape(String text) {
    return escapeWhere(text, DisplayText::escapedForJudging);
  }

  /**
   * {@code text} as a terminal may print it: what would act on the terminal rather than show itself
   * escaped (C0 controls but tab and newline, DEL, C1 controls, so every escape sequence; the bidi
   * overrides and isolates; line and paragraph separators), everything else as it is, the joiners
   * of emoji and other format characters included. For replies and records shown on a terminal:
   * a model's or a tool's text must not retitle the window, clear the screen or reorder a line.
   */
  public static String forTerminal(String text) {
    return escapeWhere(text, DisplayText::escapedOnTerminal);
  }

  /** Whether {@link #escape} would change {@code text}. */
  public static boolean needsEscape(String text) {
    return text != null && firstEscaped(text, DisplayText::escapedForJudging) >= 0;
  }

  private static String escapeWhere(String text, Escaped escaped) {
    int first = text == null ? -1 : firstEscaped(text, escaped);
    if (first < 0) {
      return text;
    }
    StringBuilder sb = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (escaped.test(cp, unpaired(text, i, cp))) {
        sb.append(cp > 0xFFFF ? String.format("\\U%08X", cp) : String.format("\\u%04X", cp));
      } else {
        sb.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    return sb.toString();
  }

  /** The index of the first character {@code escaped} escapes, or -1. */
  private static int firstEscaped(String text, Escaped escaped) {
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (escaped.test(cp, unpaired(text, i, cp))) {
        return i;
      }
      i += Character.charCount(cp);
    }
    return -1;
  }

  private static boolean unpaired(String text, int i, int cp) {
    return Character.isSurrogate(text.charAt(i)) && Character.charCount(cp) == 1;
  }

  /** For a person judging a record: unpaired surrogates and everything that {@link #acts}. */
  private static boolean escapedForJudging(int cp, boolean unpaired) {
    return unpaired || acts(cp);
  }

  /** On a terminal: what would act on it (see {@link #forTerminal}); text, emoji joiners and surrogates as they are. */
  private static boolean escapedOnTerminal(int cp, boolean unpaired) {
    return (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7f && cp <= 0x9f)
        || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
  }

  /** A character that changes the display rather than showing itself (newline excepted). */
  private static boolean acts(int cp) {
    if (cp == '\n') {
      return false;
    }
    int type = Character.getType(cp);
    return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR;
  }
}
