package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The session workflow's refusals, as any client sees them (README "Client contract (draft)").
 * Every refusal is a non-retryable {@code ApplicationFailure} of one of two types, with a message
 * a person understands and this record as its first detail, whose {@link #code} is stable:
 * <ul>
 *   <li>{@link #START_REFUSED}: the workflow failed at once because its start input is not a
 *       session's ({@code missing_field}, {@code wrong_type}, {@code unknown_field},
 *       {@code invalid_agent_class}, {@code unknown_agent_class}, {@code workflow_id_mismatch},
 *       {@code invalid_tenant});</li>
 *   <li>{@link #TURN_REFUSED}: a {@code turn} or {@code end} Update was refused, nothing was written
 *       ({@code unknown_field}, {@code wrong_type}, {@code missing_field}, {@code empty_text},
 *       {@code text_too_long}, {@code control_character}, {@code invalid_unicode},
 *       {@code session_ended}, {@code turn_limit_reached}, {@code budget_exhausted},
 *       {@code lifetime_exceeded}).</li>
 * </ul>
 * The constants live here, in one place, so a later failure-code vocabulary can fold them in.
 *
 * @param code the stable code (one of {@link Code}, lower-case)
 * @param field the input field at fault, when there is one
 * @param reason for {@code session_ended}: the session's end_reason (null while it is ending)
 * @param level for {@code budget_exhausted} (issue 20): whose budget, {@code session} or {@code work_order}
 * @param cap for {@code budget_exhausted}: that budget's cap, in tokens
 * @param spent for {@code budget_exhausted}: what of it is spent
 * @param needed for {@code budget_exhausted}: what the smallest call would reserve, when known
 * @param currency for a dollar budget's {@code budget_exhausted} (issue 23): {@code usd}; absent for tokens
 * @param capUsd for a dollar budget: its cap in US dollars
 * @param spentUsd for a dollar budget: what of it is spent
 * @param neededUsd for a dollar budget: what the smallest call would reserve at most, when known
 * @param resets for a dollar budget: when it resets, an ISO-8601 instant, or {@code never}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Refusal(String code, String field, String reason, String level, Long cap, Long spent, Long needed,
    String currency, Double capUsd, Double spentUsd, Double neededUsd, String resets) {
  public Refusal(String code, String field, String reason) {
    this(code, field, reason, null, null, null, null);
  }

  /** A refusal without dollar figures (every refusal before issue 23). */
  public Refusal(String code, String field, String reason, String level, Long cap, Long spent, Long needed) {
    this(code, field, reason, level, cap, spent, needed, null, null, null, null, null);
  }

  /**
   * {@code budget_exhausted} of a dollar budget (issue 23): its level, currency {@code usd}, its cap
   * and what is spent of it in US dollars, what the smallest call would reserve (when known) and when
   * it resets ({@code never} for a session's).
   */
  public static Refusal usdBudgetExhausted(String level, double cap, double spent, Double needed, String resets) {
    return new Refusal(Code.BUDGET_EXHAUSTED.wire(), null, null, level, null, null, null, "usd", cap, spent, needed,
        resets);
  }

  /** {@code budget_exhausted}, naming the budget that cannot pay: its level, cap and what is spent. */
  public static Refusal budgetExhausted(String level, long cap, long spent, Long needed) {
    return new Refusal(Code.BUDGET_EXHAUSTED.wire(), null, null, level, cap, spent, needed);
  }

  /** Failure type of a session whose start input was refused: the workflow failed at once. */
  public static final String START_REFUSED = FailureCode.START_REFUSED.wire();
  /**
   * Failure type of a refused {@code approve} Update (issue 15): codes {@code unknown_approval},
   * {@code already_decided}, {@code invalid_decision}, and the argument's shape codes.
   */
  public static final String APPROVAL_REFUSED = FailureCode.APPROVAL_REFUSED.wire();
  /** Failure type of an Update whose name the session does not know (issue 20), code {@code unknown_update}. */
  public static final String UNKNOWN_UPDATE = FailureCode.UNKNOWN_UPDATE.wire();
  /** Failure type of every refused Update, {@code turn} and {@code end}. */
  public static final String TURN_REFUSED = FailureCode.TURN_REFUSED.wire();
  /**
   * Failure type the session's profile activity throws for an agent class the catalog does not
   * have (details[0]: the known classes); the workflow turns it into {@link #START_REFUSED}.
   */
  public static final String UNKNOWN_AGENT_CLASS = FailureCode.UNKNOWN_AGENT_CLASS.wire();

  /** The stable codes. */
  public enum Code {
    MISSING_FIELD, WRONG_TYPE, UNKNOWN_FIELD, INVALID_SESSION_ID, INVALID_AGENT_CLASS, UNKNOWN_AGENT_CLASS, WORKFLOW_ID_MISMATCH,
    EMPTY_TEXT, TEXT_TOO_LONG, CONTROL_CHARACTER, INVALID_UNICODE,
    SESSION_ENDED, TURN_LIMIT_REACHED, BUDGET_EXHAUSTED, LIFETIME_EXCEEDED,
    /** Issue 15, {@link #APPROVAL_REFUSED}: no pending approval has this id in the session. */
    UNKNOWN_APPROVAL,
    /** Issue 15, {@link #APPROVAL_REFUSED}: the approval was decided already (the message says how, by whom, when). */
    ALREADY_DECIDED,
    /** Issue 15, {@link #APPROVAL_REFUSED}: decision is not grant or deny, decided_by is missing, a field too long. */
    INVALID_DECISION,
    /** Issue 20, {@link #APPROVAL_REFUSED}: decided_by is not one of the agent's {@code approvers}. */
    APPROVER_NOT_ALLOWED,
    /** Issue 20, type {@link #UNKNOWN_UPDATE}: the session has no Update of that name. */
    UNKNOWN_UPDATE,
    /** Issue 23, {@link #START_REFUSED}: the start input's tenant is not a {@link TenantId}. */
    INVALID_TENANT;

    /** The code as it travels: lower-case. */
    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public static Refusal of(Code code) {
    return new Refusal(code.wire(), null, null);
  }

  public static Refusal of(Code code, String field) {
    return new Refusal(code.wire(), field, null);
  }

  /** A refusal's message and detail, before it becomes a failure. */
  public record Problem(String message, Refusal refusal) {}

  /** What a JSON value is, in words: "a number", "a string", "an array", ... */
  public static String kind(com.fasterxml.jackson.databind.JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    if (n.isNull()) {
      return "null";
    }
    if (n.isTextual()) {
      return "a string";
    }
    if (n.isNumber()) {
      return "a number";
    }
    if (n.isBoolean()) {
      return "a boolean";
    }
    if (n.isArray()) {
      return "an array";
    }
    if (n.isObject()) {
      return "an object";
    }
    return "a " + n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }
}
