package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Runs one tool call on behalf of an agent in one session. Tool failures (unknown tool, refused
 * path, bad arguments, a tool that throws) are results with a status, never exceptions: the model
 * reads them as an error tool_result and can try something else.
 */
@FunctionalInterface
public interface ToolExecutor {
  /**
   * @param sessionId the session whose work order made the call; tools limited to the caller's
   *     session ({@code permissions.ledger_scope: session}) read only its entries
   */
  ToolResult execute(String agentClass, String sessionId, String toolId, JsonNode arguments,
      List<String> allowedTools);
}
