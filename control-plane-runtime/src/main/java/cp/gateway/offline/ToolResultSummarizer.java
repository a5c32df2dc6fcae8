package cp.gateway.offline;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
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
  /** A SHA-256 in hex, alone or as {@code sha256:<hex>}. */
  private static final Pattern SHA256 = Pattern.compile("\\b(sha256:)?[0-9a-f]{64}\\b");
  /** Our work-order ids carry the turn: {@code WO-<session hex>-<turn>-<seq>}. */
  private static final Pattern WORK_ORDER = Pattern.compile("WO-[0-9a-f]+-(\\d{4,})-\\d{2,}");
  /** list_packages' lines: kind, id, version, file (then the SHA-256). */
  private static final int CATALOG_LINE_FIELDS = 4;
  /** "2026-11-23T15:53:23": the date and the time to the second. */
  private static final int TIMESTAMP_TO_SECONDS = 19;
  /** An entry's reason in a summary line, cut after a whole word. */
  private static final int MAX_REASON_CHARS = 80;

  private ToolResultSummarizer() {}

  /** The summary of one result. */
  public static String summarize(ToolRounds.Result r) {
    if (r.isError()) {
      return "I could not " + action(r) + ": " + LengthLimit.cut(errorText(r.content()), MAX_ERROR_CHARS);
    }
    return switch (r.toolName()) {
      case ToolTriggerRules.LIST_PACKAGES -> packages(items(r.content()).stream().map(ToolResultSummarizer::withoutHashes)
          .filter(i -> !i.isEmpty()).toList());
      case ToolTriggerRules.READ_FILE -> file(Json.text(r.input(), "path", "the file"), payloadText(r.content()));
      case ToolTriggerRules.GATE_CHECK -> gates(Json.text(r.input(), "gate", ToolTriggerRules.ALL_GATES), items(r.content()));
      case ToolTriggerRules.QUERY_LEDGER -> ledger(entries(r.content()));
      default -> other(r.toolName(), items(r.content()));
    };
  }

  /**
   * The packages as a short list. list_packages' own lines ({@code kind id version file}, the
   * SHA-256 already dropped) are grouped by kind, each named by id and version; other shapes are
   * named in one sentence.
   */
  private static String packages(List<String> items) {
    if (items.isEmpty()) {
      return "No packages are installed.";
    }
    String head = items.size() + (items.size() == 1 ? " package is" : " packages are") + " installed";
    boolean catalogLines = items.stream().allMatch(i -> i.split("\\s+").length >= CATALOG_LINE_FIELDS);
    if (!catalogLines) {
      return head + ": " + named(items) + ".";
    }
    Map<String, List<String>> byKind = new LinkedHashMap<>();
    for (String item : items) {
      String[] f = item.split("\\s+");
      byKind.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1] + " " + f[2]);
    }
    StringBuilder sb = new StringBuilder(head).append(':');
    byKind.forEach((kind, names) -> sb.append("\n- ").append(names.size()).append(' ')
        .append(kindName(kind, names.size())).append(": ").append(named(names)));
    return sb.append("\nTheir files' SHA-256 are checked by \"check the gates\".").toString();
  }

  /** "attention_template" as "attention template(s)". */
  private static String kindName(String kind, int n) {
    String words = kind.replace('_', ' ');
    return n == 1 ? words : words + "s";
  }

  /** An item without its SHA-256 values: a person cannot read them, and gate_check compares them. */
  private static String withoutHashes(String item) {
    return SHA256.matcher(item).replaceAll("").replaceAll("\\s{2,}", " ").strip();
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

  /** One line per entry: when, what, which turn and contract, the outcome and the tokens (not the raw JSON). */
  private static String ledger(List<JsonNode> items) {
    List<JsonNode> entries = items.stream().filter(n -> n.isObject() && n.has("event_type")).toList();
    List<String> notes = items.stream().filter(n -> !(n.isObject() && n.has("event_type"))).map(JsonNode::asText)
        .toList();
    if (entries.isEmpty() && notes.isEmpty()) {
      return "The ledger query found no entries.";
    }
    if (entries.isEmpty()) {
      return "The ledger query says: " + LengthLimit.cut(String.join(" ", notes), MAX_ERROR_CHARS);
    }
    StringBuilder sb = new StringBuilder("The ledger query returned ").append(entries.size())
        .append(entries.size() == 1 ? " entry:" : " entries:");
    entries.stream().limit(MAX_NAMED_ITEMS).forEach(e -> sb.append("\n- ").append(entryLine(e)));
    if (entries.size() > MAX_NAMED_ITEMS) {
      sb.append("\n- ... and ").append(entries.size() - MAX_NAMED_ITEMS).append(" more");
    }
    notes.forEach(n -> sb.append('\n').append(LengthLimit.cut(n, MAX_LINE_CHARS)));
    return sb.toString();
  }

  private static String entryLine(JsonNode e) {
    JsonNode m = e.path("metadata");
    StringBuilder sb = new StringBuilder();
    String at = e.path("timestamp").asText("");
    if (at.length() >= TIMESTAMP_TO_SECONDS && at.charAt(10) == 'T') {
      sb.append(at, 0, 10).append(' ').append(at, 11, TIMESTAMP_TO_SECONDS).append(' ');
    }
    sb.append(e.path("event_type").asText());
    Matcher wo = WORK_ORDER.matcher(java.util.Objects.requireNonNullElse(cp.ledger.LedgerKeys.workOrderId(m), ""));
    if (wo.matches()) {
      sb.append(" turn ").append(Integer.parseInt(wo.group(1)));
    }
    String contract = m.path("contract_id").asText("");
    if (!contract.isEmpty()) {
      sb.append(' ').append(contract);
    }
    String outcome = m.path("outcome").asText("");
    if (!outcome.isEmpty()) {
      sb.append(": ").append(outcome);
      if (m.has("input_tokens") || m.has("output_tokens")) {
        sb.append(", ").append(m.path("input_tokens").asLong()).append(" in / ")
            .append(m.path("output_tokens").asLong()).append(" out tokens");
      }
    } else {
      String reason = e.path("reason").asText("");
      sb.append(' ').append(e.path("decision").asText(""));
      if (!reason.isEmpty()) {
        sb.append(": ").append(wordsWithin(reason.replace(LengthLimit.ELLIPSIS, ""), MAX_REASON_CHARS));
      }
    }
    String id = e.path("entry_id").asText("");
    return id.isEmpty() ? sb.toString() : sb.append(" (").append(id).append(')').toString();
  }

  /** {@code text} cut after a whole word within {@code max} characters, marked with " ...". */
  private static String wordsWithin(String text, int max) {
    String t = text.strip();
    if (t.length() <= max) {
      return t;
    }
    int space = t.lastIndexOf(' ', max);
    return (space > 0 ? t.substring(0, space) : t.substring(0, max)) + " ...";
  }

  /** A tool result as JSON values: the elements of an array (or of an object's first array), else one per line. */
  static List<JsonNode> entries(String content) {
    // Strict: query_ledger answers with one JSON object per line, which a lenient parse reads as the first alone.
    JsonNode node = parseWholeOrNull(content);
    if (node != null && node.isArray()) {
      return list(node);
    }
    if (node != null && node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (field.getValue().isArray()) {
          return list(field.getValue());
        }
      }
      return List.of(node);
    }
    List<JsonNode> out = new ArrayList<>();
    for (String line : lines(content)) {
      JsonNode n = parseOrNull(line);
      out.add(n != null ? n : Json.MAPPER.getNodeFactory().textNode(line));
    }
    return out;
  }

  private static List<JsonNode> list(JsonNode array) {
    List<JsonNode> out = new ArrayList<>();
    array.forEach(out::add);
    return out;
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

  private static JsonNode parseWholeOrNull(String content) {
    if (parseOrNull(content) == null) {
      return null;
    }
    try {
      return Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(content.strip());
    } catch (java.io.IOException notOneValue) {
      return null;
    }
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
