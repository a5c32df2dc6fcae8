package cp.gateway.offline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.Map;

/**
 * Cuts text to a character limit the way a reader would want it cut.
 *
 * <p>Cuts fall on a word boundary when one is near, end with an ellipsis, and never split a
 * surrogate pair. JSON replies are cut inside their longest string so they stay valid JSON,
 * which is what a contract's output validation needs even from a truncated reply.
 */
public final class LengthLimit {
  public static final String ELLIPSIS = "\u2026";
  /** A word boundary further back than this fraction of the limit is not worth losing text for. */
  private static final double MIN_WORD_CUT_FRACTION = 0.6;

  private LengthLimit() {}

  /** {@code text} itself when it fits, else a cut ending in an ellipsis, at most {@code maxChars} long. */
  public static String cut(String text, int maxChars) {
    if (text.length() <= maxChars) {
      return text;
    }
    if (maxChars <= ELLIPSIS.length()) {
      return safePrefix(text, Math.max(0, maxChars));
    }
    String head = safePrefix(text, maxChars - ELLIPSIS.length());
    boolean endsAtWord = Character.isWhitespace(text.charAt(head.length()));
    int space = head.lastIndexOf(' ');
    if (!endsAtWord && space >= head.length() * MIN_WORD_CUT_FRACTION) {
      head = head.substring(0, space);
    }
    return head.stripTrailing() + ELLIPSIS;
  }

  /** Like {@link #cut} but keeps {@code suffix} (such as the offline marker) at the end. */
  public static String cutKeepingSuffix(String text, String suffix, int maxChars) {
    if (text.length() <= maxChars) {
      return text;
    }
    String body = text.endsWith(suffix) ? text.substring(0, text.length() - suffix.length()).stripTrailing() : text;
    int room = maxChars - suffix.length() - 1;
    if (room <= ELLIPSIS.length()) {
      return cut(text, maxChars);
    }
    return cut(body, room) + " " + suffix;
  }

  /**
   * The compact JSON of {@code object}, with its longest top-level string shortened until the
   * whole is at most {@code maxChars}. When even an empty string does not fit, the JSON is
   * returned with that string empty: valid JSON beats honouring the limit.
   */
  public static String cutJson(ObjectNode object, int maxChars) {
    ObjectNode copy = object.deepCopy();
    String written = Json.write(copy);
    String field = longestString(copy);
    if (written.length() <= maxChars || field == null) {
      return written;
    }
    String value = copy.get(field).asText();
    int allowed = value.length() - (written.length() - maxChars);
    while (true) {
      copy.put(field, cut(value, Math.max(0, allowed)));
      written = Json.write(copy);
      if (written.length() <= maxChars || allowed <= 0) {
        return written;
      }
      allowed -= written.length() - maxChars; // escapes made the text longer than its characters
    }
  }

  private static String longestString(ObjectNode object) {
    String best = null;
    int bestLength = -1;
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      if (e.getValue().isTextual() && e.getValue().asText().length() > bestLength) {
        best = e.getKey();
        bestLength = e.getValue().asText().length();
      }
    }
    return best;
  }

  private static String safePrefix(String text, int n) {
    if (n > 0 && n < text.length() && Character.isHighSurrogate(text.charAt(n - 1))) {
      n--;
    }
    return text.substring(0, n);
  }
}
