package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The session's last resort when HO2 fails: one direct call under the degraded contract.
 *
 * <p>{@code tenant} (issue 23) is the session's, so the call reserves and settles that tenant's
 * dollars like any other; null in requests of sessions from before {@code degraded-tenant} 1,
 * whose degraded calls count against {@code default} as they always did.
 *
 * <p>{@code usdBudgetRemaining} ({@code degraded-session-usd} 1) is what the session's dollar
 * budget has left, which the call reserves against ({@code session} level); null: no dollar cap
 * (or a session from before), and on the wire absent.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DegradedRequest(String sessionId, String agentClass, int turn, String userMessage, long tokenBudgetRemaining,
    String tenant, Double usdBudgetRemaining) {
  /** A request without a tenant (sessions from before {@code degraded-tenant} 1). */
  public DegradedRequest(String sessionId, String agentClass, int turn, String userMessage, long tokenBudgetRemaining) {
    this(sessionId, agentClass, turn, userMessage, tokenBudgetRemaining, null, null);
  }

  /** A request without a session dollar budget (none, or a session from before {@code degraded-session-usd} 1). */
  public DegradedRequest(String sessionId, String agentClass, int turn, String userMessage, long tokenBudgetRemaining,
      String tenant) {
    this(sessionId, agentClass, turn, userMessage, tokenBudgetRemaining, tenant, null);
  }
}
