package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * HO1's last step: validate the final text against the contract (when {@code failureCode} is
 * null) and write WO_COMPLETED or WO_FAILED.
 *
 * @param toolResultRef a tool_call work order's result: its TOOL_CALL entry id, recorded as the
 *     output's {@code tool_entry_id} instead of validating a final text
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WoFinishRequest(WorkOrder workOrder, String finalText, String failureCode, String failureMessage,
    String toolResultRef) {

  /** Finishes with a final text (validated) or, when {@code failureCode} is set, as failed. */
  public WoFinishRequest(WorkOrder workOrder, String finalText, String failureCode, String failureMessage) {
    this(workOrder, finalText, failureCode, failureMessage, null);
  }

  /** Completes a tool_call work order with the TOOL_CALL entry that holds its result. */
  public static WoFinishRequest toolResult(WorkOrder workOrder, String toolCallEntryId) {
    return new WoFinishRequest(workOrder, null, null, null, java.util.Objects.requireNonNull(toolCallEntryId,
        "tool_result_ref"));
  }
}
