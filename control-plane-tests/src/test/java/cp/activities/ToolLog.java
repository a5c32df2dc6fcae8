package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import cp.tools.ToolExecutor;
import cp.tools.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A tool executor for tests: answers from a table of canned outputs, refuses tools the work
 * order does not allow (as the real dispatcher does), and records every call it runs.
 */
final class ToolLog implements ToolExecutor {
  /** One call the executor ran. */
  record Call(String agentClass, String sessionId, String toolId, JsonNode arguments, List<String> allowedTools) {}

  static final String PACKAGES = "PRC-CLASSIFY-001 1.0.0 sha256:aa11\nPRC-SYNTHESIZE-001 1.0.0 sha256:bb22";

  final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, ToolResult> results = new ConcurrentHashMap<>(Map.of(
      "list_packages", ToolResult.ok(PACKAGES),
      "read_file", ToolResult.ok("# Control Plane\nREADME text"),
      "query_ledger", ToolResult.ok("[]"),
      "gate_check", ToolResult.ok("all gates pass")));

  ToolLog answer(String toolId, ToolResult result) {
    results.put(toolId, result);
    return this;
  }

  @Override
  public ToolResult execute(String agentClass, String sessionId, String toolId, JsonNode arguments,
      List<String> allowedTools) {
    calls.add(new Call(agentClass, sessionId, toolId, arguments, List.copyOf(allowedTools)));
    if (!allowedTools.contains(toolId)) {
      return ToolResult.refused("tool_not_allowed", "tool " + toolId + " is not allowed for this work order");
    }
    return results.getOrDefault(toolId, ToolResult.error("unknown_tool", "no such tool: " + toolId));
  }

  List<String> toolIds() {
    synchronized (calls) {
      return calls.stream().map(Call::toolId).toList();
    }
  }
}
