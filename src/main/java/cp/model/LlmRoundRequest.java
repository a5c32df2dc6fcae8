package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One gateway round trip of a work order's tool loop, by reference: the prompt is in HO1m
 * ({@code promptRef}) and earlier rounds are EXCHANGE and TOOL_CALL entries
 * ({@code transcript}), so the workflow history holds ids, not conversations.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LlmRoundRequest(
    String woId,
    String sessionId,
    String agentClass,
    String contractId,
    String promptRef,
    List<EntryRef> transcript,
    List<String> allowedTools,
    int round,
    long tokenBudgetRemaining,
    Integer maxTokens,
    Double temperature) {

  public LlmRoundRequest {
    Objects.requireNonNull(woId, "wo_id");
    transcript = transcript == null ? List.of() : List.copyOf(transcript);
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
  }
}
