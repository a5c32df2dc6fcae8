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

  /**
   * A work order's call, with its identity (work order, idempotency key). Executors that run
   * only built-in tools may ignore the identity: this default does.
   */
  default ToolResult execute(ToolInvocation call) {
    return execute(call.agentClass(), call.sessionId(), call.toolId(), call.arguments(), call.allowedTools());
  }

  /** Where {@code toolId} comes from ({@link Tool#origin()}); an executor that knows only built-ins says so. */
  default String originOf(String toolId) {
    return Tool.BUILTIN;
  }

  /** The server lists the tools {@code toolIds} come from, each once (none for tools no server lists). */
  default java.util.List<ToolListing> listings(java.util.Collection<String> toolIds) {
    return java.util.List.of();
  }
}
