package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * What {@code end} returns and SESSION_END records: turns, tokens and cost of the whole session.
 * {@code endNotRecorded} is null unless the session ended without its SESSION_END (the HOT ledger
 * refused it for good): then it says why and what to do.
 *
 * @param endedAt when the session ended (ISO-8601), or null (an open session, or one that ended
 *     before the field existed)
 * @param endDetail why, in words a user can act on (e.g. "no turn for 30 min
 *     (budget.idle_timeout_seconds)"), or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionSummary(String sessionId, String agentClass, int turns, long tokensUsed, long tokenLimit,
    double cost, String endReason, int degradedTurns, String endNotRecorded, String endedAt, String endDetail) {

  /** A summary without end time and detail, as sessions that ended before those fields existed return it. */
  public SessionSummary(String sessionId, String agentClass, int turns, long tokensUsed, long tokenLimit, double cost,
      String endReason, int degradedTurns) {
    this(sessionId, agentClass, turns, tokensUsed, tokenLimit, cost, endReason, degradedTurns, null, null, null);
  }
}
