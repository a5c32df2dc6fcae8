package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** What a turn spent, and where the session's budget stands after it. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CostSummary(
    long inputTokens, long outputTokens, long totalTokens, int llmCalls, int toolCalls, double cost,
    long sessionTokensUsed, long sessionTokensRemaining) {

  public static CostSummary of(WoCost c, long sessionUsed, long sessionRemaining) {
    return new CostSummary(c.inputTokens(), c.outputTokens(), c.totalTokens(), c.llmCalls(), c.toolCalls(), c.cost(),
        sessionUsed, sessionRemaining);
  }

  public CostSummary withSession(long used, long remaining) {
    return new CostSummary(inputTokens, outputTokens, totalTokens, llmCalls, toolCalls, cost, used, remaining);
  }
}
