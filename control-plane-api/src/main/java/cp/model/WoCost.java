package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * What a work order (or a turn, or a session) spent. Immutable; {@link #plus} adds. {@code unpricedCalls}:
 * of {@code llmCalls}, those whose model has no price, so {@code cost} leaves them out (0 in what was
 * recorded before it existed).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WoCost(
    long inputTokens, long outputTokens, long totalTokens, int llmCalls, int toolCalls, double cost,
    // Left out when 0, so what was written before it existed reads and writes back unchanged.
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
    int unpricedCalls) {

  public static final WoCost ZERO = new WoCost(0, 0, 0, 0, 0, 0.0);

  @com.fasterxml.jackson.annotation.JsonCreator
  public WoCost {
    if (inputTokens < 0 || outputTokens < 0 || llmCalls < 0 || toolCalls < 0 || unpricedCalls < 0) {
      throw new IllegalArgumentException("cost counters must be >= 0");
    }
    totalTokens = inputTokens + outputTokens;
  }

  /** A cost whose calls all had a price. */
  public WoCost(long inputTokens, long outputTokens, long totalTokens, int llmCalls, int toolCalls, double cost) {
    this(inputTokens, outputTokens, totalTokens, llmCalls, toolCalls, cost, 0);
  }

  /** This cost with {@code n} of its LLM calls unpriced. */
  public WoCost withUnpricedCalls(int n) {
    return new WoCost(inputTokens, outputTokens, totalTokens, llmCalls, toolCalls, cost, n);
  }

  public static WoCost llmCall(long inputTokens, long outputTokens, double cost) {
    return new WoCost(inputTokens, outputTokens, 0, 1, 0, cost);
  }

  public static WoCost toolCall() {
    return new WoCost(0, 0, 0, 0, 1, 0.0);
  }

  public WoCost plus(WoCost other) {
    return new WoCost(
        inputTokens + other.inputTokens,
        outputTokens + other.outputTokens,
        0,
        llmCalls + other.llmCalls,
        toolCalls + other.toolCalls,
        cost + other.cost,
        unpricedCalls + other.unpricedCalls);
  }
}
