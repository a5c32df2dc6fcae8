package cp.bench;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/** P7's orchestrated side: MCP tool calls as the plane makes them, one Ho1ToolCall activity each. */
@WorkflowInterface
public interface McpBenchWorkflow {
  /**
   * Runs {@code calls} calls of the MCP tool {@code tool} (the registry's name) with
   * {@code argumentsJson} for {@code agentClass} in session {@code sessionId}, one after another.
   *
   * @return each call's time from scheduling its activity to having its result, in milliseconds of
   *     workflow time
   */
  @WorkflowMethod
  List<Long> run(String sessionId, String agentClass, String tool, String argumentsJson, int calls);
}
