package cp.gateway.offline;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tool calls a conversation already holds: each tool_result paired with its tool_use.
 *
 * <p>The offline model calls a tool only while the conversation has no result for it, and
 * answers from the results once they are there; this is the view both decisions need.
 */
public final class ToolRounds {
  /** The name recorded for a result whose tool_use is not in the conversation. */
  public static final String UNKNOWN_TOOL = "unknown_tool";

  /** One finished call: the tool, the arguments it was given, and what it returned. */
  public record Result(String toolName, JsonNode input, String content, boolean isError) {}

  private final List<Result> results;
  private final Set<String> answeredTools;

  private ToolRounds(List<Result> results) {
    this.results = List.copyOf(results);
    Set<String> names = new LinkedHashSet<>();
    results.forEach(r -> names.add(r.toolName()));
    this.answeredTools = Set.copyOf(names);
  }

  /** Reads every tool_use of assistant messages and every tool_result of user messages. */
  public static ToolRounds of(PromptRequest request) {
    Map<String, ContentBlock> uses = new HashMap<>();
    for (Message m : request.messages()) {
      for (ContentBlock b : m.content()) {
        if (b.isToolUse()) {
          uses.put(b.id(), b);
        }
      }
    }
    List<Result> results = new ArrayList<>();
    for (Message m : request.messages()) {
      for (ContentBlock b : m.content()) {
        if (b.isToolResult()) {
          ContentBlock use = uses.get(b.toolUseId());
          results.add(new Result(
              use == null ? UNKNOWN_TOOL : use.name(),
              use == null ? Json.object() : use.input(),
              b.content(),
              b.error()));
        }
      }
    }
    return new ToolRounds(results);
  }

  public List<Result> results() {
    return results;
  }

  public boolean isEmpty() {
    return results.isEmpty();
  }

  /** Whether some tool_result in the conversation answers a call of {@code toolName}. */
  public boolean hasResultFor(String toolName) {
    return answeredTools.contains(toolName);
  }
}
