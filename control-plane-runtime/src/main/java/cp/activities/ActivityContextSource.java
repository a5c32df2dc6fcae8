package cp.activities;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityInfo;
import java.util.concurrent.Callable;

/**
 * Where an activity implementation learns which activity it is running as (its Temporal identity,
 * which makes its ledger writes idempotent) and how it keeps a long call alive (heartbeats).
 *
 * <p>Inside a worker that is Temporal's activity execution context ({@link #TEMPORAL}, the
 * default of every activity implementation). Code that runs the same implementations outside
 * Temporal (the benchmark's plain-loop baseline) constructs them with its own source.
 */
public interface ActivityContextSource {
  /** The running activity's identity. */
  ActivityIdentity identity();

  /** Runs a blocking call (a provider round trip, a tool), keeping the activity alive while it runs. */
  <T> T heartbeating(Callable<T> call) throws Exception;

  /** The running Temporal activity: {@code Activity.getExecutionContext()}. */
  ActivityContextSource TEMPORAL = new ActivityContextSource() {
    @Override
    public ActivityIdentity identity() {
      ActivityInfo info = Activity.getExecutionContext().getInfo();
      return new ActivityIdentity(info.getWorkflowId(), info.getWorkflowRunId(), info.getActivityId(),
          info.getAttempt(), info.isLocal());
    }

    @Override
    public <T> T heartbeating(Callable<T> call) throws Exception {
      return Heartbeats.during(call);
    }
  };
}
