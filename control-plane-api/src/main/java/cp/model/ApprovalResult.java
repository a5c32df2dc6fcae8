package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * How an approval was decided (issue 15): the {@code approve} Update's result, what the turn
 * records as APPROVAL_DECIDED, and what the tool call learns.
 *
 * @param decision {@code granted}, {@code denied} or {@code timed_out}
 * @param granted whether the call runs: true for granted, and for timed_out when the policy grants on timeout
 * @param decidedBy who decided (the approver's name; {@code system} for a timeout)
 * @param decidedAt when, ISO-8601 UTC
 * @param reason why, as the approver said or the timeout explains; may be null
 * @param message one line for a person, e.g. "approval APR-… granted by alice: write_file will run"
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalResult(String approvalId, String sessionId, int turn, String tool, String decision,
    boolean granted, String decidedBy, String decidedAt, String reason, String message) {
  public static final String GRANTED = "granted";
  public static final String DENIED = "denied";
  public static final String TIMED_OUT = "timed_out";
  /** Who "decides" an approval nobody decided in time. */
  public static final String SYSTEM = "system";

  public ApprovalResult {
    Objects.requireNonNull(approvalId, "approval_id");
    Objects.requireNonNull(decision, "decision");
  }

  /** This result with another message. */
  public ApprovalResult withMessage(String m) {
    return new ApprovalResult(approvalId, sessionId, turn, tool, decision, granted, decidedBy, decidedAt, reason, m);
  }
}
