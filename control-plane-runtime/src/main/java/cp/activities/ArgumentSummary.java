package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * A tool call's arguments in one short line for a TOOL_CALL entry, a span or a listing:
 * {@code city="Lisbon", days=3, tags=[2 items]}. Long strings are cut, nested values counted,
 * control characters dropped; the whole arguments stay in the entry's {@code arguments}.
 */
final class ArgumentSummary {
  /** Characters of one string value shown: enough to recognize a city, a path, an id. */
  static final int MAX_VALUE_CHARS = 40;
  /** Characters of the whole line: one line of a terminal. */
  static final int MAX_CHARS = 200;

  private ArgumentSummary() {}

  static String of(JsonNode args) {
    if (args == null || !args.isObject() || args.isEmpty()) {
      return "(no arguments)";
    }
    StringBuilder sb = new StringBuilder();
    Iterator<Map.Entry<String, JsonNode>> fields = args.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(clean(f.getKey())).append('=').append(value(f.getValue()));
      if (sb.length() > MAX_CHARS) {
        return sb.substring(0, MAX_CHARS) + "...";
      }
    }
    return sb.toString();
  }

  private static String value(JsonNode v) {
    if (v.isTextual()) {
      String t = clean(v.asText());
      return "\"" + (t.length() <= MAX_VALUE_CHARS ? t : t.substring(0, MAX_VALUE_CHARS) + "...(" + t.length()
          + " chars)") + "\"";
    }
    if (v.isArray()) {
      return "[" + v.size() + (v.size() == 1 ? " item]" : " items]");
    }
    if (v.isObject()) {
      return "{" + v.size() + (v.size() == 1 ? " key}" : " keys}");
    }
    return v.toString();
  }

  private static String clean(String s) {
    return s.replaceAll("\\p{Cntrl}", " ");
  }
}
