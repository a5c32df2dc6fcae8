package cp.tools.registry;

import cp.tools.QueryLedgerTool;

/** Bounds what a Java or MCP tool returns to the model, as the built-in tools bound theirs. */
public final class ToolOutput {
  /**
   * The most characters of one result the model reads: the built-ins' bound
   * ({@link QueryLedgerTool#MAX_OUTPUT_CHARS}), so a user's tool cannot flood the context more than ours.
   */
  public static final int MAX_CHARS = QueryLedgerTool.MAX_OUTPUT_CHARS;
  /** Messages (errors, exception lines) are quoted up to this length. */
  public static final int MAX_MESSAGE_CHARS = 300;

  private ToolOutput() {}

  /** {@code text} cut to {@link #MAX_CHARS}, saying how long it was. */
  public static String bounded(String text) {
    return cut(text == null ? "" : text, MAX_CHARS);
  }

  /** The first line of a message, control characters dropped, cut to {@link #MAX_MESSAGE_CHARS}. */
  public static String message(String text) {
    if (text == null) {
      return "";
    }
    int nl = text.indexOf('\n');
    String line = (nl < 0 ? text : text.substring(0, nl)).replaceAll("\\p{Cntrl}", " ").strip();
    return cut(line, MAX_MESSAGE_CHARS);
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "...[cut: " + text.length() + " chars in all]";
  }
}
