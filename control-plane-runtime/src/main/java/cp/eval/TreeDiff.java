package cp.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * The paths at which two JSON trees differ ({@code recorded.reply}, {@code recorded.tools[0].result}).
 * Numbers compare by value (a YAML file and a ledger may hold 5 as different node types); a
 * missing field and a null one are the same. Pure.
 */
final class TreeDiff {
  private TreeDiff() {}

  /** Every path where {@code a} and {@code b} differ, below {@code prefix}, in document order. */
  static void paths(String prefix, JsonNode a, JsonNode b, List<String> out) {
    boolean aNone = a == null || a.isNull() || a.isMissingNode();
    boolean bNone = b == null || b.isNull() || b.isMissingNode();
    if (aNone || bNone) {
      if (aNone != bNone) {
        out.add(prefix);
      }
      return;
    }
    if (a.isNumber() && b.isNumber()) {
      if (a.decimalValue().compareTo(b.decimalValue()) != 0) {
        out.add(prefix);
      }
      return;
    }
    if (a.isObject() && b.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(names::add);
      for (Iterator<String> it = names.iterator(); it.hasNext(); ) {
        String n = it.next();
        paths(prefix + "." + n, a.get(n), b.get(n), out);
      }
      return;
    }
    if (a.isArray() && b.isArray()) {
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        paths(prefix + "[" + i + "]", a.get(i), b.get(i), out);
      }
      return;
    }
    if (!a.equals(b)) {
      out.add(prefix);
    }
  }

  /** The node at a path {@link #paths} produced, below the root named by its first segment; null when absent. */
  static JsonNode at(JsonNode root, String pathBelowRoot) {
    JsonNode n = root;
    for (String part : pathBelowRoot.split("\\.")) {
      if (part.isEmpty() || n == null) {
        continue;
      }
      int bracket = part.indexOf('[');
      String name = bracket < 0 ? part : part.substring(0, bracket);
      if (!name.isEmpty()) {
        n = n.get(name);
      }
      while (n != null && bracket >= 0) {
        int close = part.indexOf(']', bracket);
        n = n.get(Integer.parseInt(part.substring(bracket + 1, close)));
        bracket = part.indexOf('[', close);
      }
    }
    return n;
  }
}
