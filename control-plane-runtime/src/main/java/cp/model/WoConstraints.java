package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * The limits HO2 puts on a work order: which contract, how many tokens, how many tool rounds.
 *
 * @param promptContractId the contract HO1 executes under
 * @param tokenBudget tokens this WO may spend in total (input + output)
 * @param turnLimit LLM rounds allowed; a tool_use round beyond it fails the WO
 * @param timeoutSeconds wall-clock limit for the whole WO
 * @param allowedTools tool names the LLM may call (a subset of the agent's tools)
 * @param maxTokens optional per-call output cap tighter than the contract's boundary
 * @param temperature optional override of the contract's temperature (quality-gate retries)
 * @param usdBudget issue 23: US dollars this WO may spend in total (null: no dollar cap): what is left of
 *     the tightest dollar budget above it when it was made
 * @param usdLevel the level of that budget, {@code work_order} or {@code session} (null with no cap)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WoConstraints(
    String promptContractId,
    long tokenBudget,
    int turnLimit,
    int timeoutSeconds,
    List<String> allowedTools,
    Integer maxTokens,
    Double temperature,
    Double usdBudget,
    String usdLevel) {

  public WoConstraints {
    Objects.requireNonNull(promptContractId, "prompt_contract_id");
    if (tokenBudget < 0) {
      throw new IllegalArgumentException("token_budget must be >= 0, was " + tokenBudget);
    }
    if (turnLimit < 1) {
      throw new IllegalArgumentException("turn_limit must be >= 1, was " + turnLimit);
    }
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
  }

  /** Constraints without a dollar cap (before issue 23). */
  public WoConstraints(String promptContractId, long tokenBudget, int turnLimit, int timeoutSeconds,
      List<String> allowedTools, Integer maxTokens, Double temperature) {
    this(promptContractId, tokenBudget, turnLimit, timeoutSeconds, allowedTools, maxTokens, temperature, null, null);
  }

  public WoConstraints withOverrides(Integer newMaxTokens, Double newTemperature) {
    return new WoConstraints(promptContractId, tokenBudget, turnLimit, timeoutSeconds, allowedTools, newMaxTokens,
        newTemperature, usdBudget, usdLevel);
  }

  /** The same constraints with a dollar cap of {@code usd} from the {@code level} budget. */
  public WoConstraints withUsd(double usd, String level) {
    return new WoConstraints(promptContractId, tokenBudget, turnLimit, timeoutSeconds, allowedTools, maxTokens,
        temperature, usd, level);
  }
}
