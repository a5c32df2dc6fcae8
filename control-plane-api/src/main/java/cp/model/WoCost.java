package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** What a work order (or a turn, or a session) spent. Immutable; {@link #plus} adds. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WoCost(
    long inputTokens, long outputTokens, long totalTokens, int llmCalls, int toolCalls, double cost) {

  public static final WoCost ZERO = new WoCost(0, 0, 0, 0, 0, 0.0);

  public WoCost {
    if (inputTokens < 0 || outputTokens < 0 || llmCalls < 0 || toolCalls < 0) {
      throw new IllegalArgumentException("cost counters must be >= 0");
    }
    totalTokens = inputTokens + outputTokens;
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
        cost + other.cost);
  }
}
