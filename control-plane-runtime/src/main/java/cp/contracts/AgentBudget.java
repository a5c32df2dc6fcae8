package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * An agent's limits: per session, per work order, and on the size of one user message.
 *
 * @param sessionTokenLimit tokens (input + output) a whole session may spend
 * @param turnLimit user turns per session
 * @param timeoutSeconds maximum session lifetime
 * @param idleTimeoutSeconds a session with no turn for this long ends
 * @param woTokenBudget token cap of one work order
 * @param woTurnLimit LLM rounds (tool-loop iterations) per work order
 * @param maxMessageBytes largest accepted user message in UTF-8 bytes; 0 in the constructor
 *     (field absent from the file) means {@link #DEFAULT_MAX_MESSAGE_BYTES}
 * @param turnTimeoutSeconds the most a user waits for one turn (every work order, tool, retry
 *     and the degraded call included); 0 in the constructor (field absent from the file) means
 *     {@link #DEFAULT_TURN_TIMEOUT_SECONDS}
 * @param workOrderUsd issue 23: US dollars one work order may spend (null: no dollar cap)
 * @param sessionUsd issue 23: US dollars a whole session may spend (null: no dollar cap)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentBudget(
    long sessionTokenLimit,
    int turnLimit,
    long timeoutSeconds,
    long idleTimeoutSeconds,
    long woTokenBudget,
    int woTurnLimit,
    int maxMessageBytes,
    long turnTimeoutSeconds,
    Double workOrderUsd,
    Double sessionUsd) {

  /** About 25k English words: far above a typed message, small enough to keep one turn's prompt sane. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 100_000;

  /**
   * Five minutes: well above a normal turn (a few LLM round trips and tools, seconds to a minute
   * even with long answers) and far below what the activity timeouts and retries alone allow
   * (over an hour with a provider that never answers).
   */
  public static final long DEFAULT_TURN_TIMEOUT_SECONDS = 300;

  public AgentBudget {
    requirePositive("session_token_limit", sessionTokenLimit);
    requirePositive("turn_limit", turnLimit);
    requirePositive("timeout_seconds", timeoutSeconds);
    requirePositive("idle_timeout_seconds", idleTimeoutSeconds);
    requirePositive("wo_token_budget", woTokenBudget);
    requirePositive("wo_turn_limit", woTurnLimit);
    maxMessageBytes = maxMessageBytes == 0 ? DEFAULT_MAX_MESSAGE_BYTES : maxMessageBytes;
    requirePositive("max_message_bytes", maxMessageBytes);
    turnTimeoutSeconds = turnTimeoutSeconds == 0 ? DEFAULT_TURN_TIMEOUT_SECONDS : turnTimeoutSeconds;
    requirePositive("turn_timeout_seconds", turnTimeoutSeconds);
    requirePositiveUsd("work_order_usd", workOrderUsd);
    requirePositiveUsd("session_usd", sessionUsd);
  }

  /** A budget without dollar caps (as every agent configuration before issue 23). */
  public AgentBudget(long sessionTokenLimit, int turnLimit, long timeoutSeconds, long idleTimeoutSeconds,
      long woTokenBudget, int woTurnLimit, int maxMessageBytes, long turnTimeoutSeconds) {
    this(sessionTokenLimit, turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, maxMessageBytes,
        turnTimeoutSeconds, null, null);
  }

  /** Whether any dollar cap is set. */
  public boolean hasUsdCap() {
    return workOrderUsd != null || sessionUsd != null;
  }

  private static void requirePositiveUsd(String field, Double value) {
    if (value != null && !(value > 0 && Double.isFinite(value))) {
      throw new IllegalArgumentException("budget." + field + " must be a number of US dollars > 0, was " + value);
    }
  }

  private static void requirePositive(String field, long value) {
    if (value < 1) {
      throw new IllegalArgumentException("budget." + field + " must be >= 1, was " + value);
    }
  }
}
