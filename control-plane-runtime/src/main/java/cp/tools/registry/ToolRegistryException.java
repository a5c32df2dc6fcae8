package cp.tools.registry;

import java.util.List;

/**
 * The worker's tools cannot be registered: duplicate names, a bad descriptor or schema, a jar
 * that cannot be read. Lists every problem, one per line; the worker does not start.
 */
public class ToolRegistryException extends RuntimeException {
  private final List<String> problems;

  public ToolRegistryException(List<String> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }

  private static String message(List<String> problems) {
    StringBuilder sb = new StringBuilder("the worker's tools cannot be registered: ").append(problems.size())
        .append(problems.size() == 1 ? " problem" : " problems");
    for (String p : problems) {
      sb.append('\n').append(p);
    }
    return sb.toString();
  }
}
