package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * What a turn spent, and where the session's budget stands after it. {@code unpricedCalls}: of
 * {@code llmCalls}, those whose model has no price, so {@code cost} leaves them out; absent when none.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CostSummary(
    long inputTokens, long outputTokens, long totalTokens, int llmCalls, int toolCalls, double cost,
    long sessionTokensUsed, long sessionTokensRemaining, Integer unpricedCalls) {

  @com.fasterxml.jackson.annotation.JsonCreator
  public CostSummary {
    unpricedCalls = unpricedCalls == null || unpricedCalls <= 0 ? null : unpricedCalls;
  }

  /** A summary whose calls all had a price. */
  public CostSummary(long inputTokens, long outputTokens, long totalTokens, int llmCalls, int toolCalls, double cost,
      long sessionTokensUsed, long sessionTokensRemaining) {
    this(inputTokens, outputTokens, totalTokens, llmCalls, toolCalls, cost, sessionTokensUsed, sessionTokensRemaining,
        null);
  }

  public static CostSummary of(WoCost c, long sessionUsed, long sessionRemaining) {
    return new CostSummary(c.inputTokens(), c.outputTokens(), c.totalTokens(), c.llmCalls(), c.toolCalls(), c.cost(),
        sessionUsed, sessionRemaining, c.unpricedCalls());
  }

  public CostSummary withSession(long used, long remaining) {
    return new CostSummary(inputTokens, outputTokens, totalTokens, llmCalls, toolCalls, cost, used, remaining,
        unpricedCalls);
  }
}
