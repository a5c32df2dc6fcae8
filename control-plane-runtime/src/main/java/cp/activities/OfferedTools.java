package cp.activities;

import cp.contracts.AgentConfig;
import cp.contracts.ToolSpec;
import cp.model.ContentBlock;
import cp.model.ToolDefinition;
import cp.model.ToolUse;
import cp.tools.registry.ExposedNames;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools a round offers the model and the calls it gets back, across the provider boundary:
 * the model sees each granted, allowed tool under its exposed name ({@link ExposedNames}: only
 * {@code [a-zA-Z0-9_-]}, at most 64 characters, an MCP tool as {@code <server>_<tool>}), and a call
 * it makes under an exposed name is mapped back to the tool's own name before anything else sees
 * it: approvals, the dispatcher, TOOL_CALL entries, spans. A name the round did not offer is left
 * as the model wrote it, and the dispatcher refuses it ({@code tool_not_allowed}).
 */
final class OfferedTools {
  private final List<ToolSpec> offered;
  private final Map<String, String> byExposedName = new HashMap<>();

  /** The tools of {@code agent} that {@code allowed} allows, in the agent's order. */
  OfferedTools(AgentConfig agent, List<String> allowed) {
    this.offered = agent.tools().stream().filter(t -> allowed.contains(t.toolId())).toList();
    offered.forEach(t -> byExposedName.put(ExposedNames.of(t.toolId()), t.toolId()));
  }

  /** The tool ids offered, in order. */
  List<String> ids() {
    return offered.stream().map(ToolSpec::toolId).toList();
  }

  /** What the provider is shown. */
  List<ToolDefinition> definitions() {
    return offered.stream().map(t -> new ToolDefinition(ExposedNames.of(t.toolId()), t.description(), t.parameters()))
        .toList();
  }

  /** The calls the model asked for in {@code content}, each under the tool's own name. */
  List<ToolUse> uses(List<ContentBlock> content) {
    return content.stream().filter(ContentBlock::isToolUse)
        .map(b -> new ToolUse(b.id(), byExposedName.getOrDefault(b.name(), b.name()), b.input())).toList();
  }
}
