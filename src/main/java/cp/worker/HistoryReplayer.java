package cp.worker;

import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;

/**
 * Replays recorded workflow histories against the workflow code in this build and says whether
 * the code still makes the same decisions (is deterministic for them). Used by
 * {@code cpctl replay} and the replay tests.
 */
public final class HistoryReplayer implements AutoCloseable {
  private final TestWorkflowEnvironment env;

  public HistoryReplayer() {
    env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(TemporalOptions.dataConverter())
            .build())
        .build());
  }

  /** The outcome of one replay: ok, or the failure (a non-determinism error names TMPRL1100). */
  public record Outcome(String workflowId, String workflowType, boolean ok, String problem) {}

  public Outcome replay(WorkflowExecutionHistory history) {
    String id = history.getWorkflowExecution().getWorkflowId();
    String type = history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName();
    try {
      WorkflowReplayer.replayWorkflowExecution(history, env, SessionWorkflowImpl.class, TurnWorkflowImpl.class);
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
