package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * How HO1 ended a work order, without the work order: its terminal state, the output or the
 * error, the completion time and the final cost. HO2 already holds the work order, so the
 * history carries only what changed; {@link #applyTo} rebuilds the terminal work order.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WoOutcome(WoState state, JsonNode outputResult, WoError error, String completedAt, WoCost cost) {
  public WoOutcome {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(cost, "cost");
    if (state != WoState.COMPLETED && state != WoState.FAILED) {
      throw new IllegalArgumentException("an outcome is completed or failed, not " + state.wireName());
    }
    if ((state == WoState.FAILED) != (error != null)) {
      throw new IllegalArgumentException("a failed outcome, and only a failed one, carries an error");
    }
    outputResult = outputResult == null ? null : outputResult.deepCopy();
  }

  public static WoOutcome completed(JsonNode output, String at, WoCost cost) {
    return new WoOutcome(WoState.COMPLETED, output, null, at, cost);
  }

  public static WoOutcome failed(String code, String message, String at, WoCost cost) {
    return failed(new WoError(code, message), at, cost);
  }

  public static WoOutcome failed(WoError error, String at, WoCost cost) {
    return new WoOutcome(WoState.FAILED, null, error, at, cost);
  }

  /** The executing work order moved to this outcome, with its final cost. */
  public WorkOrder applyTo(WorkOrder executing) {
    WorkOrder costed = executing.withCost(cost);
    return error != null ? costed.fail(error, completedAt)
        : costed.complete(outputResult, completedAt);
  }
}
