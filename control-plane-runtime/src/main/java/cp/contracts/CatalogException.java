package cp.contracts;

import java.util.List;

/**
 * The catalog refused its files; the message lists every problem, one per line.
 *
 * <p>Each problem reads {@code <file>: <field>: <what is wrong>}, e.g.
 * {@code contracts/PRC-X-001.json: boundary.max_tokens: must have a minimum value of 1}. All
 * problems of all files are collected before the catalog gives up, so one start-up attempt
 * shows everything that needs fixing.
 */
public class CatalogException extends RuntimeException {
  private final List<String> problems;

  public CatalogException(String source, List<String> problems) {
    super(message(source, problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }

  private static String message(String source, List<String> problems) {
    StringBuilder sb = new StringBuilder()
        .append("catalog (").append(source).append(") refused: ")
        .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems")
        .append("; fix the files named below and restart");
    for (String p : problems) {
      sb.append('\n').append(p);
    }
    return sb.toString();
  }
}
