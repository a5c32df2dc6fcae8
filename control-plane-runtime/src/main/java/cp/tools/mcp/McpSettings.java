package cp.tools.mcp;

import java.time.Duration;
import java.util.Objects;

/**
 * Timeouts of the MCP client.
 *
 * @param requestTimeout how long one request (a tool call, a tool listing) may take; a call that
 *     takes longer ends as {@code tool_timeout}. Shorter than the tool activity's start-to-close
 *     timeout, so the call, not the activity, times out and the model is told.
 * @param startTimeout how long starting a server, the MCP handshake and listing its tools may take
 *     together; a plane's servers start at once, so N servers that hang cost one start timeout
 */
public record McpSettings(Duration requestTimeout, Duration startTimeout) {
  /** Thirty seconds: half the tool activity's default 60 s (CP_TOOL_TIMEOUT_MS), room for one call and its record. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
  /** Twenty seconds: node starting a server from a cold disk takes a few; a server slower than this is unusable. */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(20);
  /** The variable that sets {@link #requestTimeout} in milliseconds. */
  public static final String TIMEOUT_VARIABLE = "CP_MCP_TIMEOUT_MS";
  /** The variable that sets {@link #startTimeout} in milliseconds. */
  public static final String START_TIMEOUT_VARIABLE = "CP_MCP_START_TIMEOUT_MS";
  /** The longest start timeout accepted: ten minutes; a server slower than that to start is broken, not slow. */
  public static final Duration LONGEST_START_TIMEOUT = Duration.ofMinutes(10);

  public static final McpSettings DEFAULTS = new McpSettings(DEFAULT_REQUEST_TIMEOUT, DEFAULT_START_TIMEOUT);

  public McpSettings {
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(startTimeout, "startTimeout");
    if (requestTimeout.isNegative() || requestTimeout.isZero() || startTimeout.isNegative() || startTimeout.isZero()) {
      throw new IllegalArgumentException("MCP timeouts must be positive");
    }
  }

  /**
   * The settings for a worker whose tool activity times out after {@code toolActivityTimeout}:
   * the default request timeout, or half the activity's if that is shorter.
   */
  public static McpSettings forToolActivity(Duration toolActivityTimeout) {
    Duration half = toolActivityTimeout.dividedBy(2);
    return new McpSettings(half.compareTo(DEFAULT_REQUEST_TIMEOUT) < 0 ? half : DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_START_TIMEOUT);
  }
}
