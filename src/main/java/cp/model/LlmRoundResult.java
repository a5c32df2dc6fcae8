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
    String rejectedMessage) {

  public LlmRoundResult {
    toolUses = toolUses == null ? List.of() : List.copyOf(toolUses);
  }

  public boolean rejected() {
    return rejectedCode != null;
  }
}
