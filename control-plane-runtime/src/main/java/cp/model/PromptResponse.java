package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * What the gateway returns for one round trip.
 *
 * @param content the response blocks (text and tool_use)
 * @param finishReason {@code stop}, {@code length} or {@code tool_use}
 * @param exchangeEntryId the EXCHANGE (or PROMPT_REJECTED) ledger entry id
 * @param contextHash SHA-256 of the canonical prompt
 * @param outputValid whether the text validated against the contract's output schema (null: not checked)
 * @param replayed true when the response came from the ledger because a retried activity had
 *     already completed this exact round trip (no second provider call was made)
 * @param cost what the round trip cost in US dollars under the configured prices (0 offline)
 * @param costUnknown true when the model that answered has no price, so {@code cost} (0) is not what it cost
 * @param refusal for a REJECTED response, which budget refused it (null: not a budget's refusal)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromptResponse(
    RouteOutcome outcome,
    List<ContentBlock> content,
    long inputTokens,
    long outputTokens,
    String modelId,
    String providerId,
    String finishReason,
    long latencyMs,
    String timestamp,
    String exchangeEntryId,
    String contextHash,
    Boolean outputValid,
    List<String> outputValidationErrors,
    String errorCode,
    String errorMessage,
    Long budgetRemaining,
    boolean replayed,
    double cost,
    boolean costUnknown,
    RefusalKind refusal) {

  public PromptResponse {
    content = content == null ? List.of() : List.copyOf(content);
    outputValidationErrors = outputValidationErrors == null ? List.of() : List.copyOf(outputValidationErrors);
  }

  /** A response whose cost is known (or that cost nothing: refused). */
  public PromptResponse(RouteOutcome outcome, List<ContentBlock> content, long inputTokens, long outputTokens,
      String modelId, String providerId, String finishReason, long latencyMs, String timestamp, String exchangeEntryId,
      String contextHash, Boolean outputValid, List<String> outputValidationErrors, String errorCode,
      String errorMessage, Long budgetRemaining, boolean replayed, double cost) {
    this(outcome, content, inputTokens, outputTokens, modelId, providerId, finishReason, latencyMs, timestamp,
        exchangeEntryId, contextHash, outputValid, outputValidationErrors, errorCode, errorMessage, budgetRemaining,
        replayed, cost, false, null);
  }

  /** An answered response ({@code costUnknown}: its model has no price). */
  public PromptResponse(RouteOutcome outcome, List<ContentBlock> content, long inputTokens, long outputTokens,
      String modelId, String providerId, String finishReason, long latencyMs, String timestamp, String exchangeEntryId,
      String contextHash, Boolean outputValid, List<String> outputValidationErrors, String errorCode,
      String errorMessage, Long budgetRemaining, boolean replayed, double cost, boolean costUnknown) {
    this(outcome, content, inputTokens, outputTokens, modelId, providerId, finishReason, latencyMs, timestamp,
        exchangeEntryId, contextHash, outputValid, outputValidationErrors, errorCode, errorMessage, budgetRemaining,
        replayed, cost, costUnknown, null);
  }

  /** The concatenated text blocks. */
  @JsonIgnore
  public String text() {
    return ContentBlock.joinText(content);
  }

  @JsonIgnore
  public List<ContentBlock> toolUses() {
    return content.stream().filter(ContentBlock::isToolUse).toList();
  }

  @JsonIgnore
  public boolean isSuccess() {
    return outcome == RouteOutcome.SUCCESS;
  }
}
