package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;
import java.util.Set;

/**
 * One event of a live turn (issue 24), numbered from 1 in the order the turn produced them; the
 * turn workflow's Query {@code events} answers them from a sequence number (client contract,
 * "Live turns"). Which fields are set depends on the type:
 *
 * <ul>
 *   <li>{@link #STEP_STARTED}, {@link #STEP_FINISHED}: {@code step} (classify, context,
 *       synthesize, synthesize round 2, synthesize (retry 1), quality gate).
 *   <li>{@link #TOOL_REQUESTED}, {@link #TOOL_FINISHED}: {@code tool}, {@code wo_id}.
 *   <li>{@link #APPROVAL_PENDING}, {@link #APPROVAL_DECIDED}: {@code step} says which call.
 *   <li>{@link #TEXT_DELTA}: {@code text}, the next piece of the reply (for contracts that answer
 *       in JSON, of its {@code response_text}, never raw JSON).
 *   <li>{@link #RETRACTED}: {@code keep}, how many characters of the reply streamed so far stay;
 *       the rest is withdrawn (the gate rejected it, a round asked for tools, a repeated call
 *       diverged), and what follows continues from there.
 *   <li>{@link #DONE}: {@code text} the final reply and {@code outcome}: the turn's result. The
 *       reply streamed so far always equals it by then; the result itself is never taken from
 *       the stream.
 * </ul>
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TurnEvent(long seq, String type, String step, String text, Integer keep, String tool, String woId,
    String outcome) {
  public static final String STEP_STARTED = "step_started";
  public static final String STEP_FINISHED = "step_finished";
  public static final String TOOL_REQUESTED = "tool_requested";
  public static final String TOOL_FINISHED = "tool_finished";
  public static final String APPROVAL_PENDING = "approval_pending";
  public static final String APPROVAL_DECIDED = "approval_decided";
  public static final String TEXT_DELTA = "text_delta";
  public static final String RETRACTED = "retracted";
  public static final String DONE = "done";
  public static final Set<String> TYPES = Set.of(STEP_STARTED, STEP_FINISHED, TOOL_REQUESTED, TOOL_FINISHED,
      APPROVAL_PENDING, APPROVAL_DECIDED, TEXT_DELTA, RETRACTED, DONE);

  public TurnEvent {
    Objects.requireNonNull(type, "type");
    if (seq < 1) {
      throw new IllegalArgumentException("turn event numbers start at 1, was " + seq);
    }
  }

  public static TurnEvent step(long seq, String type, String step) {
    return new TurnEvent(seq, type, step, null, null, null, null, null);
  }

  public static TurnEvent tool(long seq, String type, String tool, String woId) {
    return new TurnEvent(seq, type, null, null, null, tool, woId, null);
  }

  public static TurnEvent text(long seq, String text) {
    return new TurnEvent(seq, TEXT_DELTA, null, text, null, null, null, null);
  }

  public static TurnEvent retracted(long seq, int keep) {
    return new TurnEvent(seq, RETRACTED, null, null, keep, null, null, null);
  }

  public static TurnEvent done(long seq, String text, String outcome) {
    return new TurnEvent(seq, DONE, null, text, null, null, null, outcome);
  }
}
