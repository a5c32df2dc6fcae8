package cp.gateway.offline;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes the offline model's user-facing sentences: greetings, farewells, honest answers,
 * tool summaries and the degraded-mode reply.
 *
 * <p>Every text says plainly what the offline model can and cannot do, ends with
 * {@value #OFFLINE_MARKER}, and uses what the pipeline gave it (the tools offered, the
 * classification, the fragments attention found), so a run without an API key still shows
 * whether each stage did its job.
 */
public final class ReplyComposer {
  /** The honest label at the end of every synthesized text. */
  public static final String OFFLINE_MARKER = "(offline model)";
  /** Long enough to recognise a question or a context fragment, short enough for one line. */
  public static final int MAX_ECHO_CHARS = 160;

  /** What to type to trigger each tool, used to teach the user in a greeting. */
  private static final Map<String, String> EXAMPLES = Map.of(
      ToolTriggerRules.LIST_PACKAGES, "\"what packages are installed?\"",
      ToolTriggerRules.READ_FILE, "\"read README.md\"",
      ToolTriggerRules.GATE_CHECK, "\"check the gates\"",
      ToolTriggerRules.QUERY_LEDGER, "\"show the last exchanges\"");

  /** What each tool does, in the words of a person asking for it. */
  private static final Map<String, String> CAN_DO = Map.of(
      ToolTriggerRules.LIST_PACKAGES, "list the installed packages",
      ToolTriggerRules.READ_FILE, "read a file under the plane root",
      ToolTriggerRules.GATE_CHECK, "check the integrity gates",
      ToolTriggerRules.QUERY_LEDGER, "show the last exchanges in the ledger");
  /** How attention marks the user's line of an earlier turn in the assembled context. */
  private static final Pattern EARLIER_TURN = Pattern.compile("(?m)^\\[turn \\d+\\] User: ");

  private ReplyComposer() {}

  /** What attention assembled for this turn: {@code assembled_context.text} and {@code fragment_count}. */
  public record Context(String text, int fragmentCount) {
    public static final Context NONE = new Context("", 0);

    /** Reads {@code assembled_context} as an object, or as plain text. */
    public static Context of(JsonNode assembled) {
      if (assembled == null || assembled.isMissingNode() || assembled.isNull()) {
        return NONE;
      }
      String text = assembled.isTextual() ? assembled.asText() : assembled.path("text").asText("");
      int lines = (int) text.lines().filter(l -> !l.isBlank()).count();
      return new Context(text, assembled.path("fragment_count").asInt(lines));
    }

    /** How many earlier turns of the conversation the context holds. */
    int earlierTurns() {
      return (int) EARLIER_TURN.matcher(text).results().count();
    }

    String firstLine() {
      return text.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }
  }

  /** A greeting that offers help and names the tools; {@code reentry} welcomes the user back. */
  public static String greeting(boolean reentry, List<String> tools, Context context) {
    StringBuilder sb = new StringBuilder(reentry ? "Welcome back! " : "Hello! ");
    if (reentry && context.fragmentCount() > 0) {
      sb.append("I found ").append(fragments(context.fragmentCount())).append(" of earlier context for this session. ");
    }
    sb.append("I am the offline rule-based model of this control plane: I answer by fixed rules, not with a language model. ");
    sb.append(toolOffer(tools, true));
    return sb.append(' ').append(OFFLINE_MARKER).toString();
  }

  public static String farewell() {
    return "Goodbye! This session's exchanges stay in the ledger, so you can pick up where you left off. "
        + OFFLINE_MARKER;
  }

  /**
   * An answer to a question or command the rules cannot act on: echoes it, says honestly that
   * the offline model cannot answer it, lists what it can do (each tool with what to type) and
   * how much of the conversation it has. {@code compact} names the tools on one line instead
   * (used when a quality-gate retry asks for a shorter text).
   */
  public static String answer(String speechAct, String userInput, List<String> tools, Context context, boolean compact) {
    StringBuilder sb = new StringBuilder();
    String echo = LengthLimit.cut(userInput.strip(), MAX_ECHO_CHARS);
    if (!echo.isEmpty()) {
      sb.append(SpeechActRules.COMMAND.equals(speechAct) ? "You asked me to: \"" : "You asked: \"").append(echo)
          .append("\".\n");
    }
    sb.append("I am the offline model: I answer by fixed rules, not with a language model, so I cannot answer open"
        + " questions or write new text.");
    if (tools.isEmpty()) {
      sb.append("\nNo tools are available in this session, so I can only classify and acknowledge what you say.");
    } else if (compact) {
      sb.append("\nI can run this agent's tools: ").append(String.join(", ", tools)).append('.');
    } else {
      sb.append("\nWhat I can do here:");
      for (String tool : tools) {
        sb.append("\n- ").append(CAN_DO.getOrDefault(tool, "run " + tool));
        if (EXAMPLES.containsKey(tool)) {
          sb.append(": ").append(EXAMPLES.get(tool));
        }
      }
    }
    int turns = context.earlierTurns();
    if (turns > 0) {
      sb.append("\nI have this session's last ").append(turns).append(turns == 1 ? " turn" : " turns")
          .append(" in context.");
    }
    return sb.append(' ').append(OFFLINE_MARKER).toString();
  }

  /** The answer once tools have run: one summary per result. */
  public static String fromToolResults(List<ToolRounds.Result> results) {
    String body = results.stream().map(ToolResultSummarizer::summarize).collect(Collectors.joining("\n\n"));
    return body + "\n" + OFFLINE_MARKER;
  }

  /** An explicit {@code call <tool> {json}} that could not be made: what was wrong with each, nothing called. */
  public static String cannotCall(List<String> problems) {
    return "The offline model called no tool: " + String.join("; and ", problems) + ". " + OFFLINE_MARKER;
  }

  /** PRC-EXECUTE-*: the offline model cannot carry out free-form instructions, and says so. */
  public static String executeResult(String userInput, Context context) {
    String echo = LengthLimit.cut(userInput.strip(), MAX_ECHO_CHARS);
    String head = echo.isEmpty()
        ? "No instruction was given."
        : "Received the instruction \"" + echo + "\", but the offline rule-based model cannot carry out free-form instructions.";
    return head + " Context available: " + fragments(context.fragmentCount()) + ". " + OFFLINE_MARKER;
  }

  /** PRC-DEGRADED-*: a short plain-text answer that says the plane is in reduced mode. */
  public static String degraded(String userInput) {
    String act = SpeechActRules.classify(userInput).speechAct();
    String opening = switch (act) {
      case SpeechActRules.GREETING, SpeechActRules.REENTRY_GREETING -> "Hello! ";
      case SpeechActRules.FAREWELL -> "Goodbye! ";
      default -> "";
    };
    String echo = LengthLimit.cut(userInput.strip(), MAX_ECHO_CHARS);
    return opening
        + "The control plane is running in reduced mode, so this answer comes from the offline rule-based model"
        + " without tools or context."
        + (echo.isEmpty() || !opening.isEmpty() ? "" : " I received: \"" + echo + "\", but cannot answer it properly right now.")
        + " Please try again shortly.";
  }

  private static String toolOffer(List<String> tools, boolean withExamples) {
    if (tools.isEmpty()) {
      return "No tools are available in this session, so I can only classify and acknowledge what you say.";
    }
    StringBuilder sb = new StringBuilder("I can run this agent's tools for you: ").append(String.join(", ", tools)).append('.');
    List<String> examples = tools.stream().filter(EXAMPLES::containsKey).map(EXAMPLES::get).toList();
    if (withExamples && !examples.isEmpty()) {
      sb.append(" Try ").append(orList(examples)).append('.');
    }
    return sb.toString();
  }

  /** "a", "a or b", "a, b or c". */
  private static String orList(List<String> items) {
    if (items.size() == 1) {
      return items.get(0);
    }
    return String.join(", ", items.subList(0, items.size() - 1)) + " or " + items.get(items.size() - 1);
  }

  private static String fragments(int n) {
    return n + (n == 1 ? " fragment" : " fragments");
  }
}
