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
 *
 * <p>A lean round (turn workflows from version {@code lean-turn} 1 on) also does HO1's
 * bookkeeping around the call, instead of separate local activities: the first round prepares
 * {@code dispatched} (validates its input, renders the prompt, writes WO_EXECUTING), and any
 * round that ends the work order (a final answer, a refusal) finishes it from
 * {@code costBefore} (validates the output, writes WO_COMPLETED or WO_FAILED).
 *
 * @param dispatched lean round 1 only: the work order to prepare first ({@code promptRef} is then null)
 * @param costBefore lean rounds: the work order's cost before this round; asks the round to finish it
 * @param woType lean rounds: the work order's type, for its completion record
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
    Double temperature,
    WorkOrder dispatched,
    WoCost costBefore,
    WoType woType) {

  public LlmRoundRequest {
    Objects.requireNonNull(woId, "wo_id");
    transcript = transcript == null ? List.of() : List.copyOf(transcript);
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
  }

  /** A classic round: the prompt already prepared, nothing to finish. */
  public LlmRoundRequest(String woId, String sessionId, String agentClass, String contractId, String promptRef,
      List<EntryRef> transcript, List<String> allowedTools, int round, long tokenBudgetRemaining, Integer maxTokens,
      Double temperature) {
    this(woId, sessionId, agentClass, contractId, promptRef, transcript, allowedTools, round, tokenBudgetRemaining,
        maxTokens, temperature, null, null, null);
  }

  /** Whether this round finishes the work order when it ends it (see the class comment). */
  public boolean lean() {
    return costBefore != null;
  }
}
