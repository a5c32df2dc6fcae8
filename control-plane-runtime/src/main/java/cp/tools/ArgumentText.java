package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * String sanity of a tool call's arguments, checked before the schema and before any tool runs:
 * every string (values and member names, at any depth) must be text a ledger can store and a
 * person can read. Refused: NUL (PostgreSQL's text cannot hold it, and it ended a query_ledger
 * call with a database error the model read), every other C0 control character and DEL except tab,
 * newline and carriage return (they are text), and unpaired UTF-16 surrogates (not encodable as
 * UTF-8). The model gets one plain sentence naming the argument, the character and where it is.
 */
public final class ArgumentText {
  private ArgumentText() {}

  /** The first problem in {@code args}, or empty when every string is plain text. */
  public static Optional<String> problem(JsonNode args) {
    return visit(args, "");
  }

  private static Optional<String> visit(JsonNode node, String where) {
    if (node == null) {
      return Optional.empty();
    }
    if (node.isTextual()) {
      return check(node.asText(), where.isEmpty() ? "the argument" : "argument " + where);
    }
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        Optional<String> p = visit(node.get(i), where + "[" + i + "]");
        if (p.isPresent()) {
          return p;
        }
      }
    } else if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        Optional<String> name = check(e.getKey(), "an argument name" + (where.isEmpty() ? "" : " in " + where));
        if (name.isPresent()) {
          return name;
        }
        String shown = BoundedText.quote(e.getKey(), ToolDispatcher.MAX_QUOTED_CHARS);
        Optional<String> p = visit(e.getValue(), where.isEmpty() ? shown : where + "." + shown);
        if (p.isPresent()) {
          return p;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> check(String s, String what) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        return Optional.of(what + " contains the control character " + String.format("U+%04X", (int) c)
            + " at position " + i + "; arguments must be plain text (tab, newline and carriage return are allowed)");
      }
      if (Character.isHighSurrogate(c) && (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1)))
          || Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)))) {
        return Optional.of(what + " contains an unpaired surrogate " + String.format("U+%04X", (int) c)
            + " at position " + i + "; arguments must be valid Unicode text");
      }
    }
    return Optional.empty();
  }
}
