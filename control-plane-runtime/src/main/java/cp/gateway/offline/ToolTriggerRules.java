package cp.gateway.offline;

import cp.model.EventType;
import cp.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of the ADMIN tools a user's words ask for, by fixed phrase rules.
 *
 * <p>The rules, each independent, in this order:
 * <ul>
 *   <li>{@code read_file {"path": p}}: a reading verb (read, show, open, cat, display, print,
 *       view) followed somewhere later by a path-like token {@code p} (it has a {@code /} or a
 *       file extension), e.g. "read README.md", "show me the file HOT/x.json".
 *   <li>{@code list_packages {}}: the word package(s) together with installed, list, show,
 *       what or which, e.g. "what packages are installed?", "list packages".
 *   <li>{@code gate_check {"gate": g}}: the word gate(s) together with check, pass, passing,
 *       fail, status or run; {@code g} is a named gate such as {@code G1} or {@code G0B}, else
 *       {@code all}, e.g. "check the gates", "are all gates passing?".
 *   <li>{@code query_ledger {"tier": "hot", "event_type": "EXCHANGE", "max_entries": 5}}:
 *       "exchanges" with last, recent, latest or show; "what happened"; or "ledger" with show,
 *       query, recent, last or latest.
 * </ul>
 * The rules look only at the words; whether the tool is offered is the caller's question.
 */
public final class ToolTriggerRules {
  public static final String READ_FILE = "read_file";
  public static final String LIST_PACKAGES = "list_packages";
  public static final String GATE_CHECK = "gate_check";
  public static final String QUERY_LEDGER = "query_ledger";

  /** Every gate, when the user names none. */
  public static final String ALL_GATES = "all";
  /** Ledger queries from chat look at the governance tier, where EXCHANGE records live. */
  public static final String LEDGER_TIER = "hot";
  public static final String LEDGER_EVENT_TYPE = EventType.EXCHANGE.wire();
  /** "The last exchanges": a handful fits a chat answer; more belongs to {@code cpctl ledger query}. */
  public static final int LEDGER_MAX_ENTRIES = 5;

  private static final Pattern READ_VERB =
      Pattern.compile("\\b(read|show|open|cat|display|print|view)\\b", Pattern.CASE_INSENSITIVE);
  /** A token with a slash, or a name with an extension such as README.md. */
  private static final Pattern PATH = Pattern.compile(
      "[`'\"]?((?:[\\w.~-]+/)+[\\w.~-]*|[\\w~-][\\w.~-]*\\.[A-Za-z][A-Za-z0-9]{0,9})[`'\"]?");
  private static final Pattern PACKAGES = Pattern.compile("\\bpackages?\\b");
  private static final Pattern PACKAGES_CUE = Pattern.compile("\\b(installed|list|show|what|which)\\b");
  private static final Pattern GATES = Pattern.compile("\\bgates?\\b");
  private static final Pattern GATES_CUE = Pattern.compile("\\b(check|pass|passing|passed|fail|failing|status|run)\\b");
  private static final Pattern GATE_ID = Pattern.compile("\\b(G\\d+[A-Z]?)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern EXCHANGES = Pattern.compile("\\bexchanges?\\b");
  private static final Pattern EXCHANGES_CUE = Pattern.compile("\\b(last|recent|latest|show)\\b");
  private static final Pattern WHAT_HAPPENED = Pattern.compile("\\bwhat(?:'s| has)? happened\\b");
  private static final Pattern LEDGER = Pattern.compile("\\bledger\\b");
  private static final Pattern LEDGER_CUE = Pattern.compile("\\b(show|query|recent|last|latest)\\b");

  private ToolTriggerRules() {}

  /** Every tool the text asks for, in rule order; empty when it asks for none. */
  public static List<ToolCall> match(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    List<ToolCall> calls = new ArrayList<>();
    readPath(text).ifPresent(path -> calls.add(new ToolCall(READ_FILE, Json.object().put("path", path))));
    if (find(PACKAGES, lower) && find(PACKAGES_CUE, lower)) {
      calls.add(new ToolCall(LIST_PACKAGES, Json.object()));
    }
    if (find(GATES, lower) && find(GATES_CUE, lower)) {
      Matcher id = GATE_ID.matcher(text);
      calls.add(new ToolCall(GATE_CHECK, Json.object().put("gate", id.find() ? id.group(1).toUpperCase(Locale.ROOT) : ALL_GATES)));
    }
    if ((find(EXCHANGES, lower) && find(EXCHANGES_CUE, lower))
        || find(WHAT_HAPPENED, lower)
        || (find(LEDGER, lower) && find(LEDGER_CUE, lower))) {
      calls.add(new ToolCall(QUERY_LEDGER, Json.object()
          .put("tier", LEDGER_TIER)
          .put("event_type", LEDGER_EVENT_TYPE)
          .put("max_entries", LEDGER_MAX_ENTRIES)));
    }
    return calls;
  }

  /** The path after a reading verb, without quotes or trailing sentence punctuation. */
  static Optional<String> readPath(String text) {
    Matcher verb = READ_VERB.matcher(text);
    if (!verb.find()) {
      return Optional.empty();
    }
    Matcher path = PATH.matcher(text);
    if (!path.find(verb.end())) {
      return Optional.empty();
    }
    String p = path.group(1).replaceAll("[.]+$", "");
    return p.isEmpty() ? Optional.empty() : Optional.of(p);
  }

  private static boolean find(Pattern p, String s) {
    return p.matcher(s).find();
  }
}
