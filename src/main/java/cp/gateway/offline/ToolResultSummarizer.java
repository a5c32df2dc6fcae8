package cp.gateway.offline;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns one tool result into a sentence or two a user can read, the way a model would.
 *
 * <p>Tools return JSON or plain text; either is read as a list of items (array elements, the
 * elements of the first array field, or non-blank lines). list_packages names the packages,
 * read_file counts lines and quotes the first ones, gate_check counts and lists PASS and FAIL
 * lines, query_ledger counts entries and shows the first. An error result is reported as one:
 * "I could not read X: reason".
 */
public final class ToolResultSummarizer {
  /** Names beyond this many are summarised as "and N more": a chat answer, not a dump. */
  public static final int MAX_NAMED_ITEMS = 10;
  /** Enough of a file's head to recognise it. */
  public static final int QUOTED_LINES = 3;
  public static final int MAX_LINE_CHARS = 120;
  public static final int MAX_ERROR_CHARS = 200;

  private static final List<String> PAYLOAD_TEXT_FIELDS = List.of("content", "text", "output", "result");
  private static final List<String> ERROR_FIELDS = List.of("error", "message", "reason");
  private static final Pattern PASS = Pattern.compile("\\bpass(ed)?\\b|passed=true", Pattern.CASE_INSENSITIVE);
  private static final Pattern FAIL = Pattern.compile("\\bfail(ed|ure)?\\b|passed=false", Pattern.CASE_INSENSITIVE);

  private ToolResultSummarizer() {}

  /** The summary of one result. */
  public static String summarize(ToolRounds.Result r) {
    if (r.isError()) {
      return "I could not " + action(r) + ": " + LengthLimit.cut(errorText(r.content()), MAX_ERROR_CHARS);
    }
    return switch (r.toolName()) {
      case ToolTriggerRules.LIST_PACKAGES -> packages(items(r.content()));
      case ToolTriggerRules.READ_FILE -> file(Json.text(r.input(), "path", "the file"), payloadText(r.content()));
      case ToolTriggerRules.GATE_CHECK -> gates(Json.text(r.input(), "gate", ToolTriggerRules.ALL_GATES), items(r.content()));
      case ToolTriggerRules.QUERY_LEDGER -> ledger(items(r.content()));
      default -> other(r.toolName(), items(r.content()));
    };
  }

  private static String packages(List<String> items) {
    if (items.isEmpty()) {
      return "No packages are installed.";
    }
    return items.size() + (items.size() == 1 ? " package is" : " packages are") + " installed: " + named(items) + ".";
  }

  private static String file(String path, String text) {
    List<String> lines = text.lines().toList();
    List<String> head = lines.stream().filter(l -> !l.isBlank()).limit(QUOTED_LINES).toList();
    if (head.isEmpty()) {
      return path + " is empty.";
    }
    StringBuilder sb = new StringBuilder(path).append(" has ").append(lines.size())
        .append(lines.size() == 1 ? " line" : " lines").append(". It begins:");
    head.forEach(l -> sb.append("\n> ").append(LengthLimit.cut(l.strip(), MAX_LINE_CHARS)));
    return sb.toString();
  }

  private static String gates(String gate, List<String> items) {
    List<String> passed = items.stream().filter(l -> PASS.matcher(l).find() && !FAIL.matcher(l).find()).toList();
    List<String> failed = items.stream().filter(l -> FAIL.matcher(l).find()).toList();
    String scope = ToolTriggerRules.ALL_GATES.equals(gate) ? "all gates" : "gate " + gate;
    if (passed.isEmpty() && failed.isEmpty()) {
      return "The gate check for " + scope + " reported no PASS or FAIL lines" + firstLines(items);
    }
    StringBuilder sb = new StringBuilder("Gate check for ").append(scope).append(": ")
        .append(passed.size()).append(" PASS, ").append(failed.size()).append(" FAIL")
        .append(failed.isEmpty() ? ", all passing." : ".");
    failed.stream().limit(MAX_NAMED_ITEMS).forEach(l -> sb.append("\n- ").append(LengthLimit.cut(l, MAX_LINE_CHARS)));
    passed.stream().limit(Math.max(0, MAX_NAMED_ITEMS - failed.size()))
        .forEach(l -> sb.append("\n- ").append(LengthLimit.cut(l, MAX_LINE_CHARS)));
    return sb.toString();
  }

  private static String ledger(List<String> items) {
    if (items.isEmpty()) {
      return "The ledger query found no entries.";
    }
    return "The ledger query returned " + items.size() + (items.size() == 1 ? " entry" : " entries")
        + firstLines(items);
  }

  private static String other(String tool, List<String> items) {
    if (items.isEmpty()) {
      return tool + " returned nothing.";
    }
    return tool + " returned " + items.size() + (items.size() == 1 ? " item" : " items") + firstLines(items);
  }

  private static String firstLines(List<String> items) {
    if (items.isEmpty()) {
      return ".";
    }
    StringBuilder sb = new StringBuilder(":");
    items.stream().limit(QUOTED_LINES).forEach(l -> sb.append("\n- ").append(LengthLimit.cut(l, MAX_LINE_CHARS)));
    if (items.size() > QUOTED_LINES) {
      sb.append("\n- ... and ").append(items.size() - QUOTED_LINES).append(" more");
    }
    return sb.toString();
  }

  private static String named(List<String> items) {
    String shown = String.join(", ", items.stream().limit(MAX_NAMED_ITEMS).toList());
    return items.size() > MAX_NAMED_ITEMS ? shown + " and " + (items.size() - MAX_NAMED_ITEMS) + " more" : shown;
  }

  private static String action(ToolRounds.Result r) {
    return switch (r.toolName()) {
      case ToolTriggerRules.READ_FILE -> "read " + Json.text(r.input(), "path", "the file");
      case ToolTriggerRules.LIST_PACKAGES -> "list the installed packages";
      case ToolTriggerRules.GATE_CHECK -> "run the gate check";
      case ToolTriggerRules.QUERY_LEDGER -> "query the ledger";
      default -> "run " + r.toolName();
    };
  }

  private static String errorText(String content) {
    JsonNode node = parseOrNull(content);
    if (node != null && node.isObject()) {
      for (String f : ERROR_FIELDS) {
        if (node.path(f).isTextual()) {
          return node.get(f).asText();
        }
      }
    }
    return content.isBlank() ? "the tool reported an error without a message" : content.strip();
  }

  /** A file's text: the content field of a JSON answer, else the raw result. */
  private static String payloadText(String content) {
    JsonNode node = parseOrNull(content);
    if (node != null && node.isObject()) {
      for (String f : PAYLOAD_TEXT_FIELDS) {
        if (node.path(f).isTextual()) {
          return node.get(f).asText();
        }
      }
    }
    return node != null && node.isTextual() ? node.asText() : content;
  }

  /** A tool result as a list of one-line items. */
  static List<String> items(String content) {
    JsonNode node = parseOrNull(content);
    if (node == null) {
      return lines(content);
    }
    if (node.isArray()) {
      return render(node);
    }
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        JsonNode v = field.getValue();
        if (v.isArray()) {
          return render(v);
        }
      }
      return lines(payloadText(content));
    }
    return lines(node.asText());
  }

  private static List<String> render(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(e -> out.add(renderItem(e)));
    return out;
  }

  /** An object as its scalar values in field order ("PKG-KERNEL-001 1.0.0"); booleans keep their name. */
  private static String renderItem(JsonNode e) {
    if (!e.isObject()) {
      return e.isValueNode() ? e.asText() : Json.write(e);
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> f : e.properties()) {
      JsonNode v = f.getValue();
      if (v.isBoolean()) {
        parts.add(f.getKey().toLowerCase(Locale.ROOT) + "=" + v.asText());
      } else if (v.isValueNode() && !v.isNull() && !v.asText().isBlank()) {
        parts.add(v.asText());
      }
    }
    return String.join(" ", parts);
  }

  private static List<String> lines(String text) {
    return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  private static JsonNode parseOrNull(String content) {
    String t = content.strip();
    if (!(t.startsWith("{") || t.startsWith("[") || t.startsWith("\""))) {
      return null;
    }
    try {
      return Json.parse(t);
    } catch (IllegalArgumentException notJson) {
      return null;
    }
  }
}
