package cp.contracts;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import cp.model.Json;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds the JSON in text a model or a prompt produced; see {@link PromptRenderer}. */
final class ModelJson {
  private static final ObjectReader STRICT = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Pattern FENCE = Pattern.compile("```[ \\t]*(?:json|JSON)?[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);
  /**
   * How many '{' positions the prose scan tries. Each try scans to the matching brace, so an
   * unbounded scan over text full of unbalanced braces would be quadratic.
   */
  private static final int MAX_BRACE_CANDIDATES = 32;
  /** Bound on opening tags tried by {@link #extractInputJson}, for the same reason. */
  private static final int MAX_INPUT_CANDIDATES = 32;
  /** How much of unparseable output an error message quotes. */
  private static final int QUOTE_CHARS = 120;

  private ModelJson() {}

  static JsonNode parseModelJson(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("model output is empty: expected a JSON object");
    }
    String t = text.strip();
    if (t.charAt(0) == '\uFEFF') {
      t = t.substring(1).strip();
    }
    JsonNode whole = tryParse(t);
    if (whole != null && whole.isContainerNode()) {
      return whole;
    }
    Matcher fence = FENCE.matcher(t);
    while (fence.find()) {
      JsonNode fenced = tryParse(fence.group(1).strip());
      if (fenced != null && fenced.isContainerNode()) {
        return fenced;
      }
    }
    int tries = 0;
    for (int start = t.indexOf('{'); start >= 0 && tries < MAX_BRACE_CANDIDATES; start = t.indexOf('{', start + 1)) {
      tries++;
      int end = matchingBrace(t, start);
      if (end < 0) {
        continue;
      }
      JsonNode object = tryParse(t.substring(start, end + 1));
      if (object != null) {
        return object;
      }
    }
    throw new IllegalArgumentException("model output is not JSON: expected a JSON object, raw, in a ```json "
        + "fence, or inside prose; output began: " + quote(t));
  }

  /**
   * The JSON between {@code <input>} and {@code </input>}. The closing tag is the last one in
   * the text (the JSON ends before it); the opening tag is the earliest one whose content up to
   * that closing tag parses as JSON. A tag the user typed sits inside a JSON string, after the
   * real opening tag, so it is never reached; an earlier tag in template prose or an example
   * block fails to parse at once. The normal case costs one parse.
   */
  static String extractInputJson(String userText, String open, String close) {
    if (userText == null) {
      throw new IllegalArgumentException("no " + open + " block: the text is null");
    }
    int end = userText.lastIndexOf(close);
    if (end < 0) {
      throw new IllegalArgumentException("no " + open + "..." + close + " block in the user message");
    }
    int tries = 0;
    for (int start = userText.indexOf(open); start >= 0 && start < end && tries < MAX_INPUT_CANDIDATES;
        start = userText.indexOf(open, start + open.length())) {
      tries++;
      String candidate = userText.substring(start + open.length(), end).strip();
      if (tryParse(candidate) != null) {
        return candidate;
      }
    }
    throw new IllegalArgumentException("the " + open + "..." + close + " block of the user message holds no valid JSON");
  }

  private static JsonNode tryParse(String text) {
    if (text.isEmpty()) {
      return null;
    }
    try {
      return STRICT.readTree(text);
    } catch (Exception e) {
      return null;
    }
  }

  /** Index of the '}' closing the '{' at {@code start}, skipping strings; -1 if unbalanced. */
  private static int matchingBrace(String t, int start) {
    int depth = 0;
    boolean inString = false;
    boolean escaped = false;
    for (int i = start; i < t.length(); i++) {
      char c = t.charAt(i);
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return -1;
  }

  private static String quote(String t) {
    String oneLine = t.replaceAll("\\s+", " ");
    return oneLine.length() <= QUOTE_CHARS ? "'" + oneLine + "'" : "'" + oneLine.substring(0, QUOTE_CHARS) + "...'";
  }
}
