package cp.gateway.offline;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Classifies an utterance by fixed word rules, the offline stand-in for PRC-CLASSIFY-001.
 *
 * <p>Speech act, first rule that applies (the text is lower-cased, curly apostrophes made
 * straight):
 * <ol>
 *   <li>{@code reentry_greeting}: contains "I'm back", "I am back", "hello again", "hi again",
 *       "hey again" or "back again".
 *   <li>{@code farewell}: contains the word bye, goodbye or farewell, or starts with "see
 *       you", "see ya", "good night", "take care" or "that's all".
 *   <li>{@code greeting}: starts with hello, hi, hey, howdy, greetings, hiya, or "good
 *       morning / afternoon / evening", and what follows is at most
 *       {@value #MAX_PLEASANTRY_WORDS} words asking for no tool ("hi there", "hello, how are
 *       you?"). Otherwise the rest after the greeting is classified on its own, so "hello,
 *       what packages are installed?" is a question.
 *   <li>{@code question}: ends with "?" or starts with a question word (what, how, why, when,
 *       where, who, which, is, are, can, do, does, ...).
 *   <li>{@code command}: starts with an imperative verb (read, show, list, check, run, query,
 *       tell, give, explain, ...), optionally after "please".
 *   <li>otherwise {@code question}: an unmarked statement is answered like a question.
 * </ol>
 *
 * <p>Ambiguity, first rule that applies:
 * <ol>
 *   <li>{@code low} for greetings, re-entry greetings and farewells: there is nothing to resolve.
 *   <li>{@code low} when the words ask for a tool or name a concrete object (a path, or a
 *       word such as package, gate, ledger, file, exchange, session, tool, budget, contract).
 *   <li>{@code high} when the utterance has at most {@value #VERY_SHORT_WORDS} words ("why?",
 *       "do it"): too little to act on.
 *   <li>{@code medium} otherwise.
 * </ol>
 *
 * <p>Intent is the first tool the words ask for (see {@link ToolTriggerRules}), else a label
 * for the act: greet, resume, end_session, ask or instruct.
 */
public final class SpeechActRules {
  public static final String GREETING = "greeting";
  public static final String REENTRY_GREETING = "reentry_greeting";
  public static final String FAREWELL = "farewell";
  public static final String QUESTION = "question";
  public static final String COMMAND = "command";

  public static final String LOW = "low";
  public static final String MEDIUM = "medium";
  public static final String HIGH = "high";

  /** "hi there, how are you" is still a greeting; five words after "hi" are a request. */
  public static final int MAX_PLEASANTRY_WORDS = 4;
  /** Three words or fewer without a concrete object ("why?", "do it") cannot be acted on. */
  public static final int VERY_SHORT_WORDS = 3;

  private static final List<String> REENTRY_PHRASES =
      List.of("i'm back", "im back", "i am back", "hello again", "hi again", "hey again", "back again");
  private static final Set<String> FAREWELL_WORDS = Set.of("bye", "goodbye", "farewell");
  private static final List<String> FAREWELL_OPENINGS =
      List.of("see you", "see ya", "good night", "goodnight", "take care", "that's all", "thats all");
  private static final List<String> GREETING_OPENINGS = List.of(
      "good morning", "good afternoon", "good evening", "hello", "hi", "hey", "howdy", "greetings", "hiya");
  private static final Set<String> QUESTION_WORDS = Set.of(
      "what", "what's", "whats", "how", "why", "when", "where", "who", "whom", "whose", "which",
      "is", "are", "was", "were", "am", "can", "could", "do", "does", "did", "will", "would",
      "should", "shall", "may", "might", "has", "have", "any", "isn't", "aren't");
  private static final Set<String> COMMAND_VERBS = Set.of(
      "read", "show", "list", "check", "run", "query", "tell", "give", "explain", "open",
      "display", "find", "search", "get", "describe", "summarize", "summarise", "print", "count",
      "verify", "fetch", "look", "help", "let", "make", "create", "write", "start", "stop");
  private static final String PLEASE = "please";
  private static final Set<String> CONCRETE_NOUNS = Set.of(
      "package", "packages", "gate", "gates", "ledger", "ledgers", "file", "files", "exchange",
      "exchanges", "session", "sessions", "tool", "tools", "budget", "contract", "contracts",
      "agent", "agents", "config", "readme");
  private static final Pattern PATH_LIKE = Pattern.compile("[\\w./~-]*[/.][\\w~-]+");
  private static final Pattern WORD_SPLIT = Pattern.compile("[^\\p{L}\\p{N}'/._~-]+");

  private SpeechActRules() {}

  /** Classifies {@code utterance}; never fails, an empty one is a highly ambiguous question. */
  public static Classification classify(String utterance) {
    String text = normalize(utterance);
    List<ToolCall> tools = ToolTriggerRules.match(utterance);
    String act = speechAct(text, tools);
    String ambiguity = ambiguity(act, text, tools);
    String intent = tools.isEmpty() ? intentOf(act) : tools.get(0).name();
    return new Classification(act, ambiguity, intent, !tools.isEmpty());
  }

  private static String speechAct(String text, List<ToolCall> tools) {
    List<String> words = words(text);
    if (REENTRY_PHRASES.stream().anyMatch(text::contains)) {
      return REENTRY_GREETING;
    }
    if (words.stream().anyMatch(FAREWELL_WORDS::contains) || FAREWELL_OPENINGS.stream().anyMatch(text::startsWith)) {
      return FAREWELL;
    }
    for (String opening : GREETING_OPENINGS) {
      if (startsWithWords(text, opening)) {
        String rest = text.substring(opening.length()).replaceFirst("^[\\s,.!;:-]+", "");
        if (tools.isEmpty() && words(rest).size() <= MAX_PLEASANTRY_WORDS) {
          return GREETING;
        }
        return questionOrCommand(rest);
      }
    }
    return questionOrCommand(text);
  }

  private static String questionOrCommand(String text) {
    List<String> words = words(text);
    if (text.endsWith("?")) {
      return QUESTION;
    }
    String first = words.isEmpty() ? "" : words.get(0);
    if (QUESTION_WORDS.contains(first)) {
      return QUESTION;
    }
    if (PLEASE.equals(first) && words.size() > 1) {
      first = words.get(1);
    }
    return COMMAND_VERBS.contains(first) ? COMMAND : QUESTION;
  }

  private static String ambiguity(String act, String text, List<ToolCall> tools) {
    if (act.equals(GREETING) || act.equals(REENTRY_GREETING) || act.equals(FAREWELL)) {
      return LOW;
    }
    List<String> words = words(text);
    boolean concrete = !tools.isEmpty()
        || words.stream().anyMatch(w -> CONCRETE_NOUNS.contains(w) || PATH_LIKE.matcher(w).matches());
    if (concrete) {
      return LOW;
    }
    return words.size() <= VERY_SHORT_WORDS ? HIGH : MEDIUM;
  }

  private static String intentOf(String act) {
    return switch (act) {
      case GREETING -> "greet";
      case REENTRY_GREETING -> "resume";
      case FAREWELL -> "end_session";
      case COMMAND -> "instruct";
      default -> "ask";
    };
  }

  private static boolean startsWithWords(String text, String phrase) {
    return text.startsWith(phrase)
        && (text.length() == phrase.length() || !Character.isLetterOrDigit(text.charAt(phrase.length())));
  }

  static String normalize(String s) {
    return s.replace('\u2019', '\'').toLowerCase(Locale.ROOT).strip().replaceAll("\\s+", " ");
  }

  /** Words without surrounding sentence punctuation; paths such as HOT/x.json stay whole. */
  static List<String> words(String text) {
    return Arrays.stream(WORD_SPLIT.split(text))
        .map(w -> w.replaceAll("^[.'_~-]+|[.'_~-]+$", ""))
        .filter(w -> !w.isEmpty())
        .toList();
  }
}
