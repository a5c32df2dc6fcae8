package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Text every store can hold and read back: a NUL (U+0000), which PostgreSQL's {@code text} cannot
 * store and its {@code jsonb} cannot read even escaped, and an unpaired surrogate, which is no
 * character at all, are replaced with U+FFFD when an entry is built. The chain then hashes the text
 * as stored, so both stores hold, hash and export the same bytes; a query filter is cleaned the same
 * way, so a NUL in a filter (from a model's tool call) matches what a NUL in an entry became
 * instead of failing in the database.
 *
 * <p>Thread-safety: stateless.
 */
public final class StoredText {
  /** What replaces a character no store can hold. */
  public static final char REPLACEMENT = '\uFFFD';

  private StoredText() {}

  /** {@code s} with every NUL and unpaired surrogate replaced; {@code s} itself when it has none (or is null). */
  public static String clean(String s) {
    if (s == null || isClean(s)) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0) {
        b.append(REPLACEMENT);
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        b.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        b.append(REPLACEMENT);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  static boolean isClean(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0) {
        return false;
      }
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** A deep copy of {@code node} with every text (values and field names) cleaned. */
  static ObjectNode cleanCopy(ObjectNode node) {
    return (ObjectNode) copy(node);
  }

  private static JsonNode copy(JsonNode n) {
    if (n.isTextual()) {
      String t = n.textValue();
      String c = clean(t);
      return c == t ? n : JsonNodeFactory.instance.textNode(c);
    }
    if (n.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
        Map.Entry<String, JsonNode> e = it.next();
        out.set(clean(e.getKey()), copy(e.getValue()));
      }
      return out;
    }
    if (n.isArray()) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode(n.size());
      n.forEach(v -> out.add(copy(v)));
      return out;
    }
    return n.deepCopy();
  }
}
