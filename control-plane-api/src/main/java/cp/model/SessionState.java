package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A session's state as its Query returns it and as continue-as-new carries it.
 *
 * @param turns turns completed (numbered from 1)
 * @param runs how many workflow runs the session has had (continue-as-new count + 1)
 * @param endReason ended by the user ({@code end}), idle_timeout or session_timeout; null while open
 * @param pendingApprovals tool calls of the running turn that wait for a person's decision (issue 15);
 *     {@code []} when there are none (issue 20; before, the field was left out)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionState(
    String sessionId,
    String agentClass,
    AgentProfile profile,
    int turns,
    long tokensUsed,
    long tokensRemaining,
    double cost,
    String lastOutcome,
    boolean ended,
    String endReason,
    long startedAtMillis,
    int runs,
    int degradedTurns,
    @JsonInclude(JsonInclude.Include.ALWAYS) java.util.List<PendingApproval> pendingApprovals) {
  public SessionState {
    pendingApprovals = pendingApprovals == null ? java.util.List.of() : java.util.List.copyOf(pendingApprovals);
  }

  /** A state with nothing waiting for approval. */
  public SessionState(String sessionId, String agentClass, AgentProfile profile, int turns, long tokensUsed,
      long tokensRemaining, double cost, String lastOutcome, boolean ended, String endReason, long startedAtMillis,
      int runs, int degradedTurns) {
    this(sessionId, agentClass, profile, turns, tokensUsed, tokensRemaining, cost, lastOutcome, ended, endReason,
        startedAtMillis, runs, degradedTurns, java.util.List.of());
  }
}
