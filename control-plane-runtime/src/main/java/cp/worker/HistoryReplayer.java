package cp.worker;

import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;

/**
 * Replays recorded workflow histories against the workflow code in this build and says whether
 * the code still makes the same decisions (is deterministic for them). Used by
 * {@code cpctl replay} and the replay tests.
 */
public final class HistoryReplayer implements AutoCloseable {
  /** Replay needs a task queue name; nothing is polled. */
  static final String REPLAY_QUEUE = "replay";
  /** How long replayed workflow code may run without yielding before it counts as deadlocked. */
  static final java.time.Duration REPLAY_DEADLOCK_TIMEOUT = java.time.Duration.ofSeconds(30);

  private final TestWorkflowEnvironment env;
  private final Worker worker;

  /** Replays plain (unencrypted) histories against the plane's workflow implementations. */
  public HistoryReplayer() {
    this(TemporalOptions.dataConverter());
  }

  /**
   * Replays against the plane's workflow implementations, reading payloads with {@code converter}
   * ({@link TemporalOptions#dataConverter(java.util.Optional)} with the key of the workers that wrote the
   * histories, when they were encrypted).
   */
  public HistoryReplayer(DataConverter converter) {
    this(converter, SessionWorkflowImpl.class, TurnWorkflowImpl.class);
  }

  /** Replays plain histories against the given implementations (tests: a deliberately changed workflow). */
  public HistoryReplayer(Class<?>... workflowImplementations) {
    this(TemporalOptions.dataConverter(), workflowImplementations);
  }

  public HistoryReplayer(DataConverter converter, Class<?>... workflowImplementations) {
    env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(converter).build())
        .build());
    // A replay judges decisions, not speed: on a busy machine a first workflow task can take over the
    // SDK's default 1 s, which it would report as a deadlock (TMPRL1101) although the code is fine.
    worker = env.newWorker(REPLAY_QUEUE, io.temporal.worker.WorkerOptions.newBuilder()
        .setDefaultDeadlockDetectionTimeout(REPLAY_DEADLOCK_TIMEOUT.toMillis()).build());
    worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(WorkerSettings.defaults()),
        workflowImplementations);
  }

  /**
   * The outcome of one replay: ok, or the failure: {@code problem} in one line (the innermost cause's
   * message, e.g. a payload key that is missing; a non-determinism error says so and names
   * TMPRL1100), {@code detail} as the SDK reported it, stack traces included (for {@code --verbose}).
   */
  public record Outcome(String workflowId, String workflowType, boolean ok, String problem, String detail) {}

  public Outcome replay(WorkflowExecutionHistory history) {
    String id = history.getWorkflowExecution().getWorkflowId();
    String type = history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName();
    try {
      WorkflowReplayer.replayWorkflowExecution(history, worker);
      return new Outcome(id, type, true, null, null);
    } catch (Exception e) {
      String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return new Outcome(id, type, false, problem(e, msg), msg);
    }
  }

  /** What a {@code Caused by:} line of a stack trace written into a message says after the class name. */
  private static final java.util.regex.Pattern CAUSED_BY =
      java.util.regex.Pattern.compile("(?m)^Caused by: ([\\w.$]+)(?:: (.*))?$");
  /** The Temporal SDK's code for a history the workflow code no longer reproduces. */
  static final String NON_DETERMINISM = "TMPRL1100";

  /**
   * One line for a failed replay. The SDK's replayer reports a failure as one exception whose
   * message holds the whole stack trace of its causes as text, so the innermost {@code Caused by:}
   * line is read out of it; a non-determinism error is named as one.
   */
  static String problem(Throwable e, String message) {
    boolean nonDeterministic = message.contains(NON_DETERMINISM) || cp.model.RootCause.chain(e)
        .anyMatch(t -> t instanceof io.temporal.worker.NonDeterministicException);
    String innermost = null;
    java.util.regex.Matcher m = CAUSED_BY.matcher(message);
    while (m.find()) {
      String cls = m.group(1);
      innermost = m.group(2) == null || m.group(2).isBlank() ? cls.substring(cls.lastIndexOf('.') + 1) : m.group(2);
    }
    if (innermost == null) {
      String inner = cp.model.RootCause.innermostMessage(e);
      innermost = inner == null ? message : inner;
    }
    String line = innermost.lines().findFirst().orElse("").strip();
    return nonDeterministic && !line.contains(NON_DETERMINISM)
        ? "non-deterministic (" + NON_DETERMINISM + "): " + line : line;
  }

  public Outcome replayJson(String json) {
    return replay(WorkflowExecutionHistory.fromJson(json));
  }

  @Override
  public void close() {
    env.close();
  }
}
