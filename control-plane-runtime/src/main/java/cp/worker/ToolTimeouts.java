package cp.worker;

import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bounds of one Java or MCP tool call, which must end before the tool activity that runs it
 * ({@code CP_TOOL_TIMEOUT_MS}): then the call, not the activity, times out, the model is told
 * {@code tool_timeout} and the turn goes on, instead of the activity being retried with a call
 * that hangs again.
 */
public final class ToolTimeouts {
  /** The variable bounding one Java tool call, in milliseconds. */
  public static final String JAVA_VARIABLE = "CP_JAVA_TOOL_TIMEOUT_MS";
  /** Thirty seconds: MCP's default request timeout, half the tool activity's default 60 s. */
  public static final Duration DEFAULT_CALL = Duration.ofSeconds(30);

  private ToolTimeouts() {}

  /** The default bound of a Java call under an activity timeout: 30 s or half the activity's, whichever is shorter. */
  public static Duration defaultFor(Duration toolActivity) {
    Duration half = toolActivity.dividedBy(2);
    return half.compareTo(DEFAULT_CALL) < 0 ? half : DEFAULT_CALL;
  }

  /** CP_JAVA_TOOL_TIMEOUT_MS, which must stay under the tool activity's timeout; unset, {@link #defaultFor}. */
  static Duration javaCall(java.util.Map<String, String> env, Duration toolActivity) {
    String raw = env.get(JAVA_VARIABLE);
    if (raw == null || raw.isBlank()) {
      return defaultFor(toolActivity);
    }
    return Duration.ofMillis(belowActivity(JAVA_VARIABLE, raw.trim(), toolActivity));
  }

  /**
   * The MCP client's timeouts: CP_MCP_TIMEOUT_MS under the tool activity's, unset its default for the
   * activity; CP_MCP_START_TIMEOUT_MS (at most ten minutes), unset 20 s.
   */
  static cp.tools.mcp.McpSettings mcp(java.util.Map<String, String> env, Duration toolActivity) {
    cp.tools.mcp.McpSettings defaults = cp.tools.mcp.McpSettings.forToolActivity(toolActivity);
    String raw = env.get(cp.tools.mcp.McpSettings.TIMEOUT_VARIABLE);
    Duration request = raw == null || raw.isBlank() ? defaults.requestTimeout()
        : Duration.ofMillis(belowActivity(cp.tools.mcp.McpSettings.TIMEOUT_VARIABLE, raw.trim(), toolActivity));
    String rawStart = env.get(cp.tools.mcp.McpSettings.START_TIMEOUT_VARIABLE);
    long longest = cp.tools.mcp.McpSettings.LONGEST_START_TIMEOUT.toMillis();
    Duration start = rawStart == null || rawStart.isBlank() ? defaults.startTimeout()
        : Duration.ofMillis(EnvNumbers.positive(cp.tools.mcp.McpSettings.START_TIMEOUT_VARIABLE, rawStart.trim(),
            longest, "a number of milliseconds from 1 to " + longest));
    return new cp.tools.mcp.McpSettings(request, start);
  }

  private static long belowActivity(String variable, String raw, Duration toolActivity) {
    long activity = toolActivity.toMillis();
    return EnvNumbers.positive(variable, raw, activity - 1, "a number of milliseconds from 1 to " + (activity - 1)
        + " (below CP_TOOL_TIMEOUT_MS " + activity + ")");
  }

  /**
   * Refuses a {@code timeout_seconds} of any agent's tool that is not shorter than the tool
   * activity's timeout, naming the agent, the tool and both values.
   *
   * @throws ConfigException naming CP_TOOL_TIMEOUT_MS and every offending tool
   */
  public static void check(Catalog catalog, Duration toolActivity) {
    List<String> problems = new ArrayList<>();
    for (AgentConfig a : catalog.agents()) {
      for (ToolSpec t : a.tools()) {
        if (t.timeoutSeconds() != null && Duration.ofSeconds(t.timeoutSeconds()).compareTo(toolActivity) >= 0) {
          problems.add(a.agentClass() + "'s tool " + t.toolId() + " has timeout_seconds " + t.timeoutSeconds()
              + ", not shorter than the tool activity's " + toolActivity.toMillis() + " ms");
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException("CP_TOOL_TIMEOUT_MS", String.join("; ", problems) + ": lower the tool's"
          + " tool_timeout_seconds or raise CP_TOOL_TIMEOUT_MS, so a call that hangs ends as tool_timeout and the turn"
          + " goes on");
    }
  }
}
