package cp.worker;

import cp.activities.RetryBackoff;
import cp.model.FailureCode;
import cp.model.Json;
import cp.worker.codec.AesGcmPayloadCodec;
import cp.worker.codec.EncryptedPayloadGuard;
import cp.worker.codec.PayloadKey;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import io.temporal.worker.WorkerOptions;
import io.temporal.worker.WorkflowImplementationOptions;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import cp.observability.SecretMasker;

/**
 * Every option the worker gives Temporal, built from {@link WorkerSettings} in one place:
 * activity timeouts and retries per activity type, the non-retryable failure types, the data
 * converter, and worker options (sticky execution on or off).
 *
 * <p>The workflows create their stubs without options, so these per-type options are the only
 * source of timeouts; changing them never changes a workflow's command sequence, so replay is
 * unaffected.
 *
 * <p>Local activities record only their results in the history, not their arguments: a local
 * activity is never re-run on replay, so its arguments (a whole work order, a batch of HO2m
 * events) would only make every history larger. Histories recorded with arguments still replay.
 */
public final class TemporalOptions {
  /**
   * Failure types no retry can fix: every {@link FailureCode} that is not retryable. Activities
   * also throw them as non-retryable.
   */
  public static final List<String> NON_RETRYABLE_TYPES = FailureCode.nonRetryableTypes();

  private TemporalOptions() {}

  /**
   * The remote HO1 activities (LLM round, tool call, degraded call) retry after
   * {@link WorkerSettings#remoteRetryInterval()}: that is the delay after a timeout, when the
   * worker running the call died. A provider error is retried later: the activity throws it with
   * its own next-retry delay (Retry-After, else CP_RETRY_INITIAL_MS doubling), see
   * {@code RetryBackoff}.
   */
  public static WorkflowImplementationOptions implementationOptions(WorkerSettings s) {
    RetryOptions llmRetry = retry(s, s.remoteRetryInterval(), s.llmMaxAttempts());
    ActivityOptions llm = ActivityOptions.newBuilder()
        .setStartToCloseTimeout(s.llmStartToClose())
        .setHeartbeatTimeout(s.heartbeatTimeout())
        .setRetryOptions(llmRetry)
        .build();
    ActivityOptions tool = ActivityOptions.newBuilder()
        .setStartToCloseTimeout(s.toolStartToClose())
        .setHeartbeatTimeout(s.heartbeatTimeout())
        .setRetryOptions(retry(s, s.remoteRetryInterval(), s.toolMaxAttempts()))
        .build();
    ActivityOptions degraded = ActivityOptions.newBuilder(llm)
        .setRetryOptions(retry(s, s.remoteRetryInterval(), s.degradedMaxAttempts()))
        .build();
    LocalActivityOptions local = LocalActivityOptions.newBuilder()
        .setStartToCloseTimeout(s.localStartToClose())
        .setRetryOptions(retry(s, s.retryInitialInterval(), s.localMaxAttempts()))
        .setDoNotIncludeArgumentsIntoMarker(true)
        .build();
    return WorkflowImplementationOptions.newBuilder()
        .setDefaultActivityOptions(llm)
        .setActivityOptions(Map.of(
            "Ho1LlmRound", llm,
            "Ho1ToolCall", tool,
            "Ho1DegradedCall", degraded))
        .setDefaultLocalActivityOptions(local)
        .build();
  }

  private static RetryOptions retry(WorkerSettings s, Duration initial, int attempts) {
    return RetryOptions.newBuilder()
        .setInitialInterval(initial)
        .setBackoffCoefficient(RetryBackoff.COEFFICIENT)
        .setMaximumInterval(s.retryMaxInterval())
        .setMaximumAttempts(attempts)
        .setDoNotRetry(NON_RETRYABLE_TYPES.toArray(String[]::new))
        .build();
  }

  /**
   * Worker options. Sticky execution keeps a workflow cached on the worker that ran its last
   * task, so the next task brings only the new events; without it every workflow task replays
   * the whole history from the start (a session's grows with every turn). A real server times out
   * the sticky queue of a dead or stopped worker, so there it stays on. The SDK's test server
   * never does (TEMPORAL-NOTES.md): a workflow whose worker stopped while holding it would hang,
   * so against it sticky execution is off ({@code stickyOff}) unless the worker is the sole
   * worker of an in-process service (see {@link PlaneWorker#startSoleWorker}).
   */
  public static WorkerOptions workerOptions(boolean stickyOff, String role) {
    // Heartbeats go on while a stopping worker drains (issue 20 §3): without them the SDK fails the
    // heartbeat of a running LLM call at once, the call is cancelled, and the next worker pays for it again.
    WorkerOptions.Builder b = WorkerOptions.newBuilder().setIdentity(identity(role))
        .setAllowActivityHeartbeatDuringShutdown(true);
    if (stickyOff) {
      b.setStickyQueueScheduleToStartTimeout(Duration.ZERO);
    }
    return b.build();
  }

  /**
   * The identity this process's client gives the Temporal service, {@code user@host:pid} (the SDK's
   * default is {@code pid@host}): the service records it with every Update, so an approval's record
   * shows the OS user and host that sent it beside the name it claims (issue 20). Chosen by the
   * client, so as trustworthy as the namespace's access control.
   */
  public static String clientIdentity() {
    String jvm = ManagementFactory.getRuntimeMXBean().getName(); // pid@host
    int at = jvm.indexOf('@');
    String pid = at > 0 ? jvm.substring(0, at) : jvm;
    String host = at > 0 ? jvm.substring(at + 1) : "unknown-host";
    return System.getProperty("user.name", "unknown-user") + "@" + host + ":" + pid;
  }

  /** {@code pid@host/role}: workers in one JVM otherwise share one identity. */
  public static String identity(String role) {
    return ManagementFactory.getRuntimeMXBean().getName() + "/" + role;
  }

  /**
   * The data converter of every client, worker and replayer of the plane {@code config}
   * describes: with {@code CP_PAYLOAD_KEY} set, payloads are encrypted (see
   * {@link #dataConverter(Optional)}).
   */
  public static DataConverter dataConverter(PlaneConfig config) {
    return dataConverter(config.payloadKey(), config.secretMasker());
  }

  /**
   * Jackson with the plane's mapper (snake_case records, unknown fields ignored), behind a payload
   * codec; failures as Temporal converts them, except a session's refusals
   * ({@link RefusalFailureConverter}). With a key, every payload (workflow, activity and update inputs and results, query
   * answers, failure details) is sealed with AES-256-GCM, and failure messages and stack traces
   * move into an encrypted attribute too, since they can quote a prompt. Without one, payloads
   * stay plain JSON and an encrypted payload met on decode fails with a message naming the key
   * id it needs. Every party that reads a history must use the same key. Failure messages and
   * stack traces are masked first ({@link MaskingFailureConverter}: the common secret patterns).
   */
  public static DataConverter dataConverter(Optional<PayloadKey> key) {
    return dataConverter(key, new SecretMasker());
  }

  /** {@link #dataConverter(Optional)} whose failures are masked with {@code masker} (the process's secrets). */
  public static DataConverter dataConverter(Optional<PayloadKey> key, SecretMasker masker) {
    DataConverter json = DefaultDataConverter.newDefaultInstance()
        .withPayloadConverterOverrides(new JacksonJsonPayloadConverter(Json.newMapper()))
        .withFailureConverter(new MaskingFailureConverter(new RefusalFailureConverter(), masker));
    if (key.isPresent()) {
      return new CodecDataConverter(json, List.of(new AesGcmPayloadCodec(key.get())), true);
    }
    return new CodecDataConverter(json, List.of(new EncryptedPayloadGuard()), false);
  }

  /** The converter without encryption: tests and tools that only meet plain histories. */
  public static DataConverter dataConverter() {
    return dataConverter(Optional.empty());
  }
}
