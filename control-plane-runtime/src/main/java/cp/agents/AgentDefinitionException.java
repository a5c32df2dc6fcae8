package cp.agents;

import java.util.List;

/** The agent definitions of {@code CP_AGENTS_DIR} have errors; the worker does not start. One line per problem. */
public class AgentDefinitionException extends RuntimeException {
  private final List<DefinitionProblem> problems;

  public AgentDefinitionException(List<DefinitionProblem> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  public List<DefinitionProblem> problems() {
    return problems;
  }

  private static String message(List<DefinitionProblem> problems) {
    StringBuilder sb = new StringBuilder("the agent definitions (").append(AgentDefinitions.VARIABLE).append(") have ")
        .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems")
        .append("; fix them (cpctl agents check) and restart");
    problems.forEach(p -> sb.append('\n').append(p));
    return sb.toString();
  }
}
