package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * What one round trip produced, small enough for workflow history: the text (the answer, when
 * there are no tool uses), the tool calls to make, tokens and the EXCHANGE entry id.
 *
 * @param rejectedCode set when the gateway refused to send (e.g. budget_exhausted)
 * @param promptRef lean round 1: the WO_EXECUTING entry it wrote, for the rounds after it
 * @param finished lean rounds: how the round ended the work order, when it did
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LlmRoundResult(
    String exchangeEntryId,
    String text,
    List<ToolUse> toolUses,
    String finishReason,
    long inputTokens,
    long outputTokens,
    double cost,
    String modelId,
    boolean replayed,
    String rejectedCode,
    String rejectedMessage,
    String promptRef,
    WoOutcome finished) {

  public LlmRoundResult {
    toolUses = toolUses == null ? List.of() : List.copyOf(toolUses);
  }

  /** A classic round's result: nothing prepared, nothing finished. */
  public LlmRoundResult(String exchangeEntryId, String text, List<ToolUse> toolUses, String finishReason,
      long inputTokens, long outputTokens, double cost, String modelId, boolean replayed, String rejectedCode,
      String rejectedMessage) {
    this(exchangeEntryId, text, toolUses, finishReason, inputTokens, outputTokens, cost, modelId, replayed,
        rejectedCode, rejectedMessage, null, null);
  }

  /** This result with what a lean round prepared and how it finished the work order. */
  public LlmRoundResult withLean(String preparedRef, WoOutcome outcome) {
    return new LlmRoundResult(exchangeEntryId, text, toolUses, finishReason, inputTokens, outputTokens, cost, modelId,
        replayed, rejectedCode, rejectedMessage, preparedRef, outcome);
  }

  public boolean rejected() {
    return rejectedCode != null;
  }
}
