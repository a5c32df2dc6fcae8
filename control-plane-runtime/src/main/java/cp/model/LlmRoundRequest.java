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
 * @param promptRef the prepared prompt (a WO_EXECUTING entry); null only when {@code dispatched} is set
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

  /**
   * @throws IllegalArgumentException when the request is not one of the three shapes the runners
   *     send: a prepared prompt ({@code prompt_ref}) or a work order to prepare ({@code
   *     dispatched}), exactly one; finishing with both {@code cost_before} and {@code wo_type}, or
   *     neither; preparing only in a round that also finishes
   */
  public LlmRoundRequest {
    Objects.requireNonNull(woId, "wo_id");
    transcript = transcript == null ? List.of() : List.copyOf(transcript);
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
    if ((promptRef == null) == (dispatched == null)) {
      throw new IllegalArgumentException("round " + round + " of " + woId + " needs exactly one of prompt_ref (a"
          + " prepared prompt) and dispatched (a work order to prepare); it has " + (promptRef == null ? "neither"
          : "both"));
    }
    if ((costBefore == null) != (woType == null)) {
      throw new IllegalArgumentException("round " + round + " of " + woId + " finishes its work order with both"
          + " cost_before and wo_type or neither; it has only " + (costBefore == null ? "wo_type" : "cost_before"));
    }
    if (dispatched != null && costBefore == null) {
      throw new IllegalArgumentException("round " + round + " of " + woId + " prepares its work order (dispatched)"
          + " but does not finish it (no cost_before): only the current protocol prepares in a round");
    }
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
