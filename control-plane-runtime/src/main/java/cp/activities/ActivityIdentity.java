package cp.activities;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityInfo;

/**
 * The Temporal identity of the running activity: what makes its ledger writes idempotent and
 * links an EXCHANGE record to the history event that scheduled it.
 */
record ActivityIdentity(String workflowId, String runId, String activityId, int attempt, boolean local) {

  static ActivityIdentity current() {
    ActivityIdentity direct = DirectCalls.current();
    if (direct != null) {
      return direct;
    }
    ActivityInfo info = Activity.getExecutionContext().getInfo();
    return new ActivityIdentity(info.getWorkflowId(), info.getWorkflowRunId(), info.getActivityId(), info.getAttempt(),
        info.isLocal());
  }

  /** An idempotency key unique to this workflow run and {@code event}. */
  String runKey(String event) {
    return workflowId + "/" + runId + "/" + event;
  }

  /** An idempotency key unique to this activity (all attempts share it). */
  String activityKey(String event) {
    return event + "/" + workflowId + "/" + runId + "/" + activityId;
  }
}
