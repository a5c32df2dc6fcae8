package cp.activities;

/**
 * The Temporal identity of the running activity: what makes its ledger writes idempotent and
 * links an EXCHANGE record to the history event that scheduled it. {@link ActivityContextSource}
 * supplies it.
 */
public record ActivityIdentity(String workflowId, String runId, String activityId, int attempt, boolean local) {

  /** An idempotency key unique to this workflow run and {@code event}. */
  String runKey(String event) {
    return workflowId + "/" + runId + "/" + event;
  }

  /** An idempotency key unique to this activity (all attempts share it). */
  String activityKey(String event) {
    return event + "/" + workflowId + "/" + runId + "/" + activityId;
  }
}
