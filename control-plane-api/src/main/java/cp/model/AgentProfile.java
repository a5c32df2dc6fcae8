package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * What the workflows need to know about an agent class, captured once per session.
 *
 * <p>The session loads it through an activity when it starts and carries it across
 * continue-as-new, so a running session keeps the limits it started with even if the agent's
 * configuration file changes, and replay never depends on a file.
 *
 * <p>{@code turnTimeoutSeconds} is the agent's {@code budget.turn_timeout_seconds}: how long a
 * user waits for one turn at most; 0 (a profile recorded before the field existed) means no
 * deadline.
 *
 * <p>Issue 20: {@code approvers} are the names that may decide the agent's approvals (empty:
 * anyone who can send the {@code approve} Update); {@code smallestCallTokens} is what the agent's
 * smallest model call reserves (the classify prompt's fixed part, estimated, plus the classify
 * contract's {@code max_tokens}), so a session that cannot pay for it refuses the turn up front.
 * Both are absent (empty, 0: no such check) in profiles recorded before.
 *
 * <p>Issue 23: {@code workOrderUsd} and {@code sessionUsd} are the agent's dollar caps (null: none);
 * {@code smallestCallUsd} is the most the smallest call can cost for an empty message (its prompt's
 * fixed part and max_tokens at the model's price) and {@code promptUsdPerMtok} the dearest price of
 * a prompt token, so the session prices the message's own tokens; null when the model has no price.
 * {@code tenantCapped} says whether the session's tenant had a daily or monthly cap on the worker
 * that loaded the profile (from {@code tenant-capped} 1): false, the session never asks its tenant's
 * room before a turn (the gateway still reserves every call against whatever caps it has then);
 * null (a profile loaded before, or by {@code profile(agentClass)}): unknown, it asks, as before.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentProfile(
    String agentClass,
    String agentId,
    String frameworkId,
    String attentionTemplateId,
    List<String> toolIds,
    long sessionTokenLimit,
    int turnLimit,
    long timeoutSeconds,
    long idleTimeoutSeconds,
    long woTokenBudget,
    int woTurnLimit,
    int woTimeoutSeconds,
    int maxMessageBytes,
    int maxRetries,
    int maxResponseChars,
    long turnTimeoutSeconds,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ToolApproval> approvals,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> approvers,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long smallestCallTokens,
    Double workOrderUsd,
    Double sessionUsd,
    Double smallestCallUsd,
    Double promptUsdPerMtok,
    Boolean tenantCapped) {

  public AgentProfile {
    Objects.requireNonNull(agentClass, "agent_class");
    toolIds = toolIds == null ? List.of() : List.copyOf(toolIds);
    approvals = approvals == null ? List.of() : List.copyOf(approvals);
    approvers = approvers == null ? List.of() : List.copyOf(approvers);
  }

  /** A profile without dollar budgets (as every profile recorded before issue 23). */
  public AgentProfile(String agentClass, String agentId, String frameworkId, String attentionTemplateId,
      List<String> toolIds, long sessionTokenLimit, int turnLimit, long timeoutSeconds, long idleTimeoutSeconds,
      long woTokenBudget, int woTurnLimit, int woTimeoutSeconds, int maxMessageBytes, int maxRetries,
      int maxResponseChars, long turnTimeoutSeconds, List<ToolApproval> approvals, List<String> approvers,
      long smallestCallTokens) {
    this(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit, turnLimit, timeoutSeconds,
        idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes, maxRetries,
        maxResponseChars, turnTimeoutSeconds, approvals, approvers, smallestCallTokens, null, null, null, null, null);
  }

  /** A profile without approvers or a smallest call (as every profile recorded before issue 20). */
  public AgentProfile(String agentClass, String agentId, String frameworkId, String attentionTemplateId,
      List<String> toolIds, long sessionTokenLimit, int turnLimit, long timeoutSeconds, long idleTimeoutSeconds,
      long woTokenBudget, int woTurnLimit, int woTimeoutSeconds, int maxMessageBytes, int maxRetries,
      int maxResponseChars, long turnTimeoutSeconds, List<ToolApproval> approvals) {
    this(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit, turnLimit, timeoutSeconds,
        idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes, maxRetries,
        maxResponseChars, turnTimeoutSeconds, approvals, List.of(), 0);
  }

  /** A profile as issue 23 first loaded it: dollar caps, no word on the tenant's caps. */
  public AgentProfile(String agentClass, String agentId, String frameworkId, String attentionTemplateId,
      List<String> toolIds, long sessionTokenLimit, int turnLimit, long timeoutSeconds, long idleTimeoutSeconds,
      long woTokenBudget, int woTurnLimit, int woTimeoutSeconds, int maxMessageBytes, int maxRetries,
      int maxResponseChars, long turnTimeoutSeconds, List<ToolApproval> approvals, List<String> approvers,
      long smallestCallTokens, Double workOrderUsd, Double sessionUsd, Double smallestCallUsd,
      Double promptUsdPerMtok) {
    this(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit, turnLimit, timeoutSeconds,
        idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes, maxRetries,
        maxResponseChars, turnTimeoutSeconds, approvals, approvers, smallestCallTokens, workOrderUsd, sessionUsd,
        smallestCallUsd, promptUsdPerMtok, null);
  }

  /** This profile saying whether the session's tenant has a cap (null: unknown, the session asks). */
  public AgentProfile withTenantCapped(Boolean capped) {
    return new AgentProfile(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit,
        turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes,
        maxRetries, maxResponseChars, turnTimeoutSeconds, approvals, approvers, smallestCallTokens, workOrderUsd,
        sessionUsd, smallestCallUsd, promptUsdPerMtok, capped);
  }

  /** Whether the agent has a dollar cap (issue 23). */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean hasUsdCap() {
    return workOrderUsd != null || sessionUsd != null;
  }

  /** Whether {@code name} may decide this agent's approvals. */
  public boolean mayApprove(String name) {
    return approvers.isEmpty() || approvers.contains(name);
  }

  /** A profile in which no tool needs approval (as every profile recorded before issue 15). */
  public AgentProfile(String agentClass, String agentId, String frameworkId, String attentionTemplateId,
      List<String> toolIds, long sessionTokenLimit, int turnLimit, long timeoutSeconds, long idleTimeoutSeconds,
      long woTokenBudget, int woTurnLimit, int woTimeoutSeconds, int maxMessageBytes, int maxRetries,
      int maxResponseChars, long turnTimeoutSeconds) {
    this(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit, turnLimit, timeoutSeconds,
        idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes, maxRetries,
        maxResponseChars, turnTimeoutSeconds, List.of());
  }

  /** The approval policy of {@code toolId}, or empty when its calls run without a person's decision. */
  public java.util.Optional<ToolApproval> approvalOf(String toolId) {
    return approvals.stream().filter(a -> a.toolId().equals(toolId)).findFirst();
  }

  /** This profile with another approval policy (the tools whose calls wait for a person). */
  public AgentProfile withApprovals(List<ToolApproval> policy) {
    return new AgentProfile(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit,
        turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes,
        maxRetries, maxResponseChars, turnTimeoutSeconds, policy, approvers, smallestCallTokens,
        workOrderUsd, sessionUsd, smallestCallUsd, promptUsdPerMtok, tenantCapped);
  }

  /** This profile with other approvers (empty: anyone). */
  public AgentProfile withApprovers(List<String> names) {
    return new AgentProfile(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit,
        turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes,
        maxRetries, maxResponseChars, turnTimeoutSeconds, approvals, names, smallestCallTokens,
        workOrderUsd, sessionUsd, smallestCallUsd, promptUsdPerMtok, tenantCapped);
  }

  /** This profile with another smallest call (0: unknown, no up-front check). */
  public AgentProfile withSmallestCallTokens(long tokens) {
    return new AgentProfile(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit,
        turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes,
        maxRetries, maxResponseChars, turnTimeoutSeconds, approvals, approvers, tokens, workOrderUsd, sessionUsd,
        smallestCallUsd, promptUsdPerMtok, tenantCapped);
  }

  /** The same profile with dollar caps and the prices of its smallest call (issue 23; nulls: none). */
  public AgentProfile withUsd(Double workOrderUsd, Double sessionUsd, Double smallestCallUsd, Double promptUsdPerMtok) {
    return new AgentProfile(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit,
        turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes,
        maxRetries, maxResponseChars, turnTimeoutSeconds, approvals, approvers, smallestCallTokens, workOrderUsd,
        sessionUsd, smallestCallUsd, promptUsdPerMtok, tenantCapped);
  }

  /**
   * A profile without a turn deadline ({@code turn_timeout_seconds} 0), as sessions started
   * before the field existed carry it: their turns wait as long as the activity timeouts allow.
   */
  public AgentProfile(String agentClass, String agentId, String frameworkId, String attentionTemplateId,
      List<String> toolIds, long sessionTokenLimit, int turnLimit, long timeoutSeconds, long idleTimeoutSeconds,
      long woTokenBudget, int woTurnLimit, int woTimeoutSeconds, int maxMessageBytes, int maxRetries,
      int maxResponseChars) {
    this(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit, turnLimit, timeoutSeconds,
        idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes, maxRetries,
        maxResponseChars, 0);
  }

  /** This profile with another turn deadline in seconds (0: none). */
  public AgentProfile withTurnTimeoutSeconds(long seconds) {
    return new AgentProfile(agentClass, agentId, frameworkId, attentionTemplateId, toolIds, sessionTokenLimit,
        turnLimit, timeoutSeconds, idleTimeoutSeconds, woTokenBudget, woTurnLimit, woTimeoutSeconds, maxMessageBytes,
        maxRetries, maxResponseChars, seconds, approvals, approvers, smallestCallTokens,
        workOrderUsd, sessionUsd, smallestCallUsd, promptUsdPerMtok, tenantCapped);
  }
}
