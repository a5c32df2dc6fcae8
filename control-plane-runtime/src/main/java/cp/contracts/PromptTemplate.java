package cp.contracts;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code {{name}}} placeholder syntax of prompt packs: find placeholders, fill them.
 *
 * <p>A placeholder is {@code {{name}}} (spaces inside the braces allowed) with a name of
 * lower-case letters, digits and underscores. Any other {@code {{} is malformed and refused, so
 * a typo such as {@code {{user-input}}} fails at load time instead of reaching a model.
 * Filling is a single pass: a value that itself contains {@code {{x}}} is not expanded again.
 */
public final class PromptTemplate {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([a-z_][a-z0-9_]*)\\s*\\}\\}");
  private static final String OPEN = "{{";
  /** How much of a malformed placeholder a message quotes. */
  private static final int QUOTE_CHARS = 30;

  private PromptTemplate() {}

  /**
   * The placeholder names of {@code template}, in order of first use.
   *
   * @throws IllegalArgumentException naming the offset and text of the first malformed placeholder
   */
  public static Set<String> placeholders(String template) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(template);
    int from = 0;
    while (true) {
      int open = template.indexOf(OPEN, from);
      if (open < 0) {
        return names;
      }
      if (!m.find(open) || m.start() != open) {
        String quoted = template.substring(open, Math.min(template.length(), open + QUOTE_CHARS));
        throw new IllegalArgumentException("malformed placeholder at offset " + open + ": '" + quoted
            + "' (write {{name}} with lower-case letters, digits and _)");
      }
      names.add(m.group(1));
      from = m.end();
    }
  }

  /** Replaces every placeholder with {@code values.apply(name)} in one pass. */
  public static String render(String template, Function<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder(template.length() + 256);
    while (m.find()) {
      String value = values.apply(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
    }
    m.appendTail(out);
    return out.toString();
  }
}
