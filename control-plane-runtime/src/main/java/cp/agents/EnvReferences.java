package cp.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${NAME}} in a definition's MCP server values: replaced by the environment variable, so a
 * secret stays out of the file. A reference to an unset variable is an error, never an empty string.
 */
final class EnvReferences {
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*)}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private EnvReferences() {}

  /** The outcome: the value with every reference replaced, or what is wrong. */
  record Resolved(String value, List<String> problems) {
    boolean ok() {
      return problems.isEmpty();
    }
  }

  static Resolved resolve(String text, Map<String, String> env) {
    List<String> problems = new ArrayList<>();
    StringBuilder out = new StringBuilder();
    Matcher m = REFERENCE.matcher(text);
    while (m.find()) {
      String name = m.group(1);
      String value = null;
      if (!NAME.matcher(name).matches()) {
        problems.add("${" + name + "} is not a variable reference: write ${NAME} with letters, digits and _");
      } else {
        value = env.get(name);
        if (value == null) {
          problems.add("${" + name + "} names a variable that is not set in the environment; set " + name
              + " for the worker (and for cpctl agents check)");
        }
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
    }
    m.appendTail(out);
    if (problems.isEmpty() && out.indexOf("${") >= 0) {
      problems.add("an unclosed ${ ; write ${NAME}");
    }
    return new Resolved(out.toString(), problems);
  }

  /** The variables {@code text} references, with their values in {@code env} (unset ones left out), into {@code out}. */
  static void referenced(String text, Map<String, String> env, Map<String, String> out) {
    if (text == null) {
      return;
    }
    Matcher m = REFERENCE.matcher(text);
    while (m.find()) {
      String value = env.get(m.group(1));
      if (value != null) {
        out.put(m.group(1), value);
      }
    }
  }

  /** Whether anything but references and white space is written: the text holds a literal value. */
  static boolean hasLiteral(String text) {
    String rest = REFERENCE.matcher(text).replaceAll("");
    return !rest.isBlank() && !rest.strip().matches("(?i)(bearer|basic|token)");
  }
}
