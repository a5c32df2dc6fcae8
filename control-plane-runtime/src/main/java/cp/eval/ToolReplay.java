package cp.eval;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import cp.tools.ToolExecutor;
import cp.tools.ToolInvocation;
import cp.tools.ToolListing;
import cp.tools.ToolResult;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The eval worker's tool executor (issue 25 §3): a call of a session an eval case runs in is
 * answered with the case's recorded result for the same tool and arguments, instead of running the
 * tool; a call the record lacks gets an error result ({@link #UNRECORDED}) the model reads. Calls
 * of other sessions, and every call when replay is off ({@code --live-tools}), go to the real
 * executor.
 *
 * <p>It sits where HO1's tool-call activity hands a call to the executor, so everything before and
 * after still applies: the call is an activity with its idempotency key and timeout, the work
 * order's budget and turn limit count it, a tool the work order does not allow is refused by the
 * real dispatcher (this class never answers a call the work order does not allow), and the
 * activity writes the TOOL_CALL entry, whose {@code origin} says {@code replay} (see
 * {@link #originOf}) so the ledger shows the tool was not run. Thread-safe.
 */
public final class ToolReplay implements ToolExecutor {
  /** The origin a replayed call's TOOL_CALL records (instead of builtin, java or mcp:&lt;server&gt;). */
  public static final String ORIGIN = "replay";
  /** The error code of a call the case's record has no result for. */
  public static final String UNRECORDED = "eval_unrecorded_tool_call";

  private final ToolExecutor live;
  private final Map<String, List<RecordedToolCall>> bySession = new ConcurrentHashMap<>();

  public ToolReplay(ToolExecutor live) {
    this.live = Objects.requireNonNull(live, "live");
  }

  /** From now on, tool calls of {@code sessionId} are answered from {@code recorded}. */
  public void replay(String sessionId, List<RecordedToolCall> recorded) {
    bySession.put(sessionId, List.copyOf(recorded == null ? List.of() : recorded));
  }

  /** Whether calls of {@code sessionId} are replayed. */
  public boolean replays(String sessionId) {
    return sessionId != null && bySession.containsKey(sessionId);
  }

  @Override
  public ToolResult execute(String agentClass, String sessionId, String toolId, JsonNode arguments,
      List<String> allowedTools) {
    return execute(ToolInvocation.direct(agentClass, sessionId, toolId, arguments, allowedTools));
  }

  @Override
  public ToolResult execute(ToolInvocation call) {
    List<RecordedToolCall> recorded = call.sessionId() == null ? null : bySession.get(call.sessionId());
    if (recorded == null || call.toolId() == null || !call.allowedTools().contains(call.toolId())) {
      return live.execute(call); // not an eval session, or a call the dispatcher must refuse itself
    }
    JsonNode args = normal(call.arguments());
    for (RecordedToolCall r : recorded) {
      if (r.tool().equals(call.toolId()) && normal(r.arguments()).equals(args)) {
        String content = r.result() == null ? "" : r.result().isTextual() ? r.result().asText() : r.result().toString();
        return r.error() ? ToolResult.error("replayed_error", content) : ToolResult.ok(content);
      }
    }
    return ToolResult.error(UNRECORDED, call.toolId() + " " + Json.write(args) + " was not run: this is an eval run"
        + " that replays recorded tool results, and the recorded turn made no such call (run the suite with"
        + " --live-tools to call tools for real)");
  }

  /** Arguments as compared: absent and null are the empty object. */
  private static JsonNode normal(JsonNode args) {
    return args == null || args.isNull() || args.isMissingNode() ? Json.object() : args;
  }

  /**
   * A tool is recorded as {@link #ORIGIN} once sessions are replayed: the executor is not told the
   * session here, and the eval worker runs only the run's sessions.
   */
  @Override
  public String originOf(String toolId) {
    return bySession.isEmpty() ? live.originOf(toolId) : ORIGIN;
  }

  @Override
  public List<ToolListing> listings(Collection<String> toolIds) {
    return live.listings(toolIds);
  }
}
