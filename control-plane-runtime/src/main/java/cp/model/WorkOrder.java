package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * A unit of cognitive work HO2 plans and HO1 executes (FMWK-008).
 *
 * <p>Immutable: every change returns a new work order, and a state change goes through
 * {@link #transitionTo}, which refuses any move the lifecycle does not allow. The JSON form
 * uses the seed's snake_case field names and ignores unknown fields, because work orders live
 * in ledgers and workflow histories longer than any one version of this class.
 *
 * @param woId e.g. {@code WO-1a2b3c4d-0001-01}
 * @param inputContext what the contract's input schema validates (kept small: references, not transcripts)
 * @param outputResult the contract-valid output, once completed
 * @param createdAt ISO-8601 instant
 * @param completedAt ISO-8601 instant, once terminal
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkOrder(
    String woId,
    WoType woType,
    String sessionId,
    String agentClass,
    WoState state,
    JsonNode inputContext,
    WoConstraints constraints,
    JsonNode outputResult,
    WoCost cost,
    WoError error,
    String createdAt,
    String completedAt) {

  public WorkOrder {
    Objects.requireNonNull(woId, "wo_id");
    Objects.requireNonNull(woType, "wo_type");
    Objects.requireNonNull(sessionId, "session_id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(constraints, "constraints");
    inputContext = inputContext == null ? Json.object() : inputContext.deepCopy();
    outputResult = outputResult == null ? null : outputResult.deepCopy();
    cost = cost == null ? WoCost.ZERO : cost;
  }

  /** A freshly planned work order. */
  public static WorkOrder planned(
      String woId, WoType type, String sessionId, String agentClass, JsonNode inputContext,
      WoConstraints constraints, String createdAt) {
    return new WorkOrder(woId, type, sessionId, agentClass, WoState.PLANNED, inputContext, constraints,
        null, WoCost.ZERO, null, createdAt, null);
  }

  /** Moves to {@code next}, or throws {@link IllegalTransitionException} naming both states. */
  public WorkOrder transitionTo(WoState next) {
    if (!state.canTransitionTo(next)) {
      throw new IllegalTransitionException(woId, state, next);
    }
    return new WorkOrder(woId, woType, sessionId, agentClass, next, inputContext, constraints,
        outputResult, cost, error, createdAt, completedAt);
  }

  public WorkOrder withCost(WoCost newCost) {
    return new WorkOrder(woId, woType, sessionId, agentClass, state, inputContext, constraints,
        outputResult, newCost, error, createdAt, completedAt);
  }

  /** executing -> completed with the output and the completion time. */
  public WorkOrder complete(JsonNode output, String at) {
    WorkOrder next = transitionTo(WoState.COMPLETED);
    return new WorkOrder(woId, woType, sessionId, agentClass, next.state, inputContext, constraints,
        output, cost, null, createdAt, at);
  }

  /** Any non-terminal state -> failed with a code and message. */
  public WorkOrder fail(String code, String message, String at) {
    return fail(new WoError(code, message), at);
  }

  /** Any non-terminal state -> failed with {@code error}. */
  public WorkOrder fail(WoError error, String at) {
    WorkOrder next = transitionTo(WoState.FAILED);
    return new WorkOrder(woId, woType, sessionId, agentClass, next.state, inputContext, constraints,
        outputResult, cost, error, createdAt, at);
  }

  /** Tokens still available to this WO under its budget. */
  public long tokensRemaining() {
    return Math.max(0, constraints.tokenBudget() - cost.totalTokens());
  }

  /** This work order as a turn's result shows it (no inputs, no outputs). */
  public WoSummary summary() {
    return new WoSummary(woId, woType.wireName(), state.wireName(), error == null ? null : error.code(),
        cost.totalTokens(), cost.llmCalls(), cost.toolCalls());
  }
}
