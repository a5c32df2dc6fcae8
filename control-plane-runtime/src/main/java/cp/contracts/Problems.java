package cp.contracts;

import java.util.ArrayList;
import java.util.List;

/** Collects catalog problems as {@code <file>: <field>: <message>} lines. */
final class Problems {
  private final List<String> lines = new ArrayList<>();

  /** Adds one problem; a null or {@code $} field means the whole file. */
  void add(String file, String field, String message) {
    if (field == null || field.isEmpty() || "$".equals(field)) {
      lines.add(file + ": " + message);
    } else {
      lines.add(file + ": " + field + ": " + message);
    }
  }

  /** Adds each schema violation, its field path prefixed by {@code prefix} (may be empty). */
  void addAll(String file, String prefix, List<SchemaValidator.Violation> violations) {
    for (SchemaValidator.Violation v : violations) {
      add(file, join(prefix, v.path()), v.message());
    }
  }

  static String join(String prefix, String path) {
    if (prefix == null || prefix.isEmpty()) {
      return path;
    }
    if (path == null || path.isEmpty() || "$".equals(path)) {
      return prefix;
    }
    return path.startsWith("[") ? prefix + path : prefix + "." + path;
  }

  boolean isEmpty() {
    return lines.isEmpty();
  }

  List<String> lines() {
    return List.copyOf(lines);
  }
}
