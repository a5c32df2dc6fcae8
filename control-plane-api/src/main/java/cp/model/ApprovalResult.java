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
 * @param clientIdentity the identity the Temporal service recorded with the {@code approve} Update
 *     that made this decision (the deciding client's; our client sends {@code user@host:pid}), beside
 *     the claimed {@code decidedBy}; null for a timeout, or when it could not be read
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalResult(String approvalId, String sessionId, int turn, String tool, String decision,
    boolean granted, String decidedBy, String decidedAt, String reason, String message, String clientIdentity) {
  public static final String GRANTED = "granted";
  public static final String DENIED = "denied";
  public static final String TIMED_OUT = "timed_out";
  /** Who "decides" an approval nobody decided in time. */
  public static final String SYSTEM = "system";

  public ApprovalResult {
    Objects.requireNonNull(approvalId, "approval_id");
    Objects.requireNonNull(decision, "decision");
  }

  /** A result without the deciding client's identity (a timeout, or before it is known). */
  public ApprovalResult(String approvalId, String sessionId, int turn, String tool, String decision, boolean granted,
      String decidedBy, String decidedAt, String reason, String message) {
    this(approvalId, sessionId, turn, tool, decision, granted, decidedBy, decidedAt, reason, message, null);
  }

  /** This result with another message. */
  public ApprovalResult withMessage(String m) {
    return new ApprovalResult(approvalId, sessionId, turn, tool, decision, granted, decidedBy, decidedAt, reason, m,
        clientIdentity);
  }

  /** This result with the identity the service recorded for the deciding client. */
  public ApprovalResult withClientIdentity(String identity) {
    return new ApprovalResult(approvalId, sessionId, turn, tool, decision, granted, decidedBy, decidedAt, reason,
        message, identity);
  }
}
