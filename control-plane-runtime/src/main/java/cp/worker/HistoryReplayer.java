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
    worker = env.newWorker(REPLAY_QUEUE);
    worker.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(WorkerSettings.defaults()),
        workflowImplementations);
  }

  /** The outcome of one replay: ok, or the failure (a non-determinism error names TMPRL1100). */
  public record Outcome(String workflowId, String workflowType, boolean ok, String problem) {}

  public Outcome replay(WorkflowExecutionHistory history) {
    String id = history.getWorkflowExecution().getWorkflowId();
    String type = history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName();
    try {
      WorkflowReplayer.replayWorkflowExecution(history, worker);
      return new Outcome(id, type, true, null);
    } catch (Exception e) {
      String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return new Outcome(id, type, false, msg);
    }
  }

  public Outcome replayJson(String json) {
    return replay(WorkflowExecutionHistory.fromJson(json));
  }

  @Override
  public void close() {
    env.close();
  }
}
