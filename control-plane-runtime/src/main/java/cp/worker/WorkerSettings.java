package cp.worker;

import cp.model.ClientDefaults;
import cp.workflows.SessionWorkflowImpl;
import java.time.Duration;
import java.util.Map;

/**
 * Timeouts, retries and queues of the Temporal side, from the environment ({@code CP_*}).
 *
 * <p>The defaults follow the measurements in TEMPORAL-NOTES.md: an LLM call gets a generous
 * start-to-close but a short heartbeat timeout, and heartbeats while in flight, so a dead
 * worker is noticed in about two seconds instead of at the end of the start-to-close window.
 */
public record WorkerSettings(
    String taskQueue,
    Duration llmStartToClose,
    Duration heartbeatTimeout,
    int llmMaxAttempts,
    Duration retryInitialInterval,
    Duration retryMaxInterval,
    Duration toolStartToClose,
    int toolMaxAttempts,
    Duration localStartToClose,
    int localMaxAttempts,
    int degradedMaxAttempts,
    int continueAsNewAfterTurns,
    Duration serviceLostAfter,
    Duration crashRetryInterval) {

  public static final String DEFAULT_TASK_QUEUE = ClientDefaults.TASK_QUEUE;
  /**
   * Above the providers' default HTTP call timeout (10 min read + connect, as the official SDKs
   * use without streaming), so the HTTP client, not Temporal, times out a slow completion.
   */
  public static final Duration DEFAULT_LLM_START_TO_CLOSE = Duration.ofMinutes(11);
  /** Measured: 2 s heartbeat timeout with a heartbeat every ~500 ms recovers in under 3 s. */
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(2);
  /** With 1 s initial backoff doubling to 30 s, five attempts span about a minute. */
  public static final int DEFAULT_LLM_MAX_ATTEMPTS = 5;
  public static final Duration DEFAULT_RETRY_INITIAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_RETRY_MAX = Duration.ofSeconds(30);
  public static final Duration DEFAULT_TOOL_START_TO_CLOSE = Duration.ofSeconds(60);
  public static final int DEFAULT_TOOL_MAX_ATTEMPTS = 3;
  /** Ledger writes, prompt rendering and attention are local disk work. */
  public static final Duration DEFAULT_LOCAL_START_TO_CLOSE = Duration.ofSeconds(30);
  public static final int DEFAULT_LOCAL_MAX_ATTEMPTS = 5;
  /** The degraded call is the last resort while the user waits: fail fast. */
  public static final int DEFAULT_DEGRADED_MAX_ATTEMPTS = 2;
  public static final int DEFAULT_CONTINUE_AS_NEW_TURNS = SessionWorkflowImpl.DEFAULT_CONTINUE_AS_NEW_TURNS;
  /** How long the CLI's client waits for an unreachable service ({@code CP_SERVICE_LOST_MS}). */
  public static final Duration DEFAULT_SERVICE_LOST_AFTER = ClientDefaults.SERVICE_LOST_AFTER;

  /**
   * How soon an LLM round or tool call is tried again after its worker died (its heartbeat or
   * start-to-close timed out): the call never finished, so nothing is gained by waiting. Provider
   * errors keep their own backoff (CP_RETRY_INITIAL_MS doubling to CP_RETRY_MAX_MS, or the
   * provider's Retry-After), which the activity sets on the failure it throws.
   */
  public static final Duration DEFAULT_CRASH_RETRY = Duration.ofMillis(100);

  /** Settings with the default service-loss limit and crash retry interval. */
  public WorkerSettings(String taskQueue, Duration llmStartToClose, Duration heartbeatTimeout, int llmMaxAttempts,
      Duration retryInitialInterval, Duration retryMaxInterval, Duration toolStartToClose, int toolMaxAttempts,
      Duration localStartToClose, int localMaxAttempts, int degradedMaxAttempts, int continueAsNewAfterTurns) {
    this(taskQueue, llmStartToClose, heartbeatTimeout, llmMaxAttempts, retryInitialInterval, retryMaxInterval,
        toolStartToClose, toolMaxAttempts, localStartToClose, localMaxAttempts, degradedMaxAttempts,
        continueAsNewAfterTurns, DEFAULT_SERVICE_LOST_AFTER, DEFAULT_CRASH_RETRY);
  }

  public static WorkerSettings defaults() {
    return fromEnv(Map.of());
  }

  /** Reads its CP_* variables; a value that is not a positive number is a ConfigException naming it. */
  public static WorkerSettings fromEnv(Map<String, String> env) {
    return new WorkerSettings(
        env.getOrDefault("CP_TASK_QUEUE", DEFAULT_TASK_QUEUE),
        millis(env, "CP_LLM_TIMEOUT_MS", DEFAULT_LLM_START_TO_CLOSE),
        millis(env, "CP_HEARTBEAT_TIMEOUT_MS", DEFAULT_HEARTBEAT_TIMEOUT),
        count(env, "CP_LLM_MAX_ATTEMPTS", DEFAULT_LLM_MAX_ATTEMPTS),
        millis(env, "CP_RETRY_INITIAL_MS", DEFAULT_RETRY_INITIAL),
        millis(env, "CP_RETRY_MAX_MS", DEFAULT_RETRY_MAX),
        millis(env, "CP_TOOL_TIMEOUT_MS", DEFAULT_TOOL_START_TO_CLOSE),
        count(env, "CP_TOOL_MAX_ATTEMPTS", DEFAULT_TOOL_MAX_ATTEMPTS),
        millis(env, "CP_LOCAL_TIMEOUT_MS", DEFAULT_LOCAL_START_TO_CLOSE),
        count(env, "CP_LOCAL_MAX_ATTEMPTS", DEFAULT_LOCAL_MAX_ATTEMPTS),
        count(env, "CP_DEGRADED_MAX_ATTEMPTS", DEFAULT_DEGRADED_MAX_ATTEMPTS),
        count(env, "CP_CONTINUE_AS_NEW_TURNS", DEFAULT_CONTINUE_AS_NEW_TURNS),
        millis(env, "CP_SERVICE_LOST_MS", DEFAULT_SERVICE_LOST_AFTER),
        millis(env, "CP_RETRY_AFTER_CRASH_MS", DEFAULT_CRASH_RETRY));
  }

  /** The first retry interval of a remote HO1 activity: a dead worker's call comes back this soon. */
  public Duration remoteRetryInterval() {
    return crashRetryInterval.compareTo(retryInitialInterval) < 0 ? crashRetryInterval : retryInitialInterval;
  }

  public WorkerSettings withRetry(Duration initial, Duration max, int llmAttempts) {
    return new WorkerSettings(taskQueue, llmStartToClose, heartbeatTimeout, llmAttempts, initial, max, toolStartToClose,
        toolMaxAttempts, localStartToClose, localMaxAttempts, degradedMaxAttempts, continueAsNewAfterTurns,
        serviceLostAfter, crashRetryInterval);
  }

  public WorkerSettings withCrashRetryInterval(Duration interval) {
    return new WorkerSettings(taskQueue, llmStartToClose, heartbeatTimeout, llmMaxAttempts, retryInitialInterval,
        retryMaxInterval, toolStartToClose, toolMaxAttempts, localStartToClose, localMaxAttempts, degradedMaxAttempts,
        continueAsNewAfterTurns, serviceLostAfter, interval);
  }

  public WorkerSettings withTaskQueue(String queue) {
    return new WorkerSettings(queue, llmStartToClose, heartbeatTimeout, llmMaxAttempts, retryInitialInterval,
        retryMaxInterval, toolStartToClose, toolMaxAttempts, localStartToClose, localMaxAttempts, degradedMaxAttempts,
        continueAsNewAfterTurns, serviceLostAfter, crashRetryInterval);
  }

  private static Duration millis(Map<String, String> env, String var, Duration fallback) {
    String v = env.get(var);
    return v == null || v.isBlank() ? fallback
        : Duration.ofMillis(EnvNumbers.positive(var, v, Long.MAX_VALUE, "a positive number of milliseconds"));
  }

  private static int count(Map<String, String> env, String var, int fallback) {
    String v = env.get(var);
    return v == null || v.isBlank() ? fallback
        : (int) EnvNumbers.positive(var, v, Integer.MAX_VALUE, "a positive whole number");
  }
}
