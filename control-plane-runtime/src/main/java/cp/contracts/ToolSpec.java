package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.model.Json;
import cp.model.ToolDefinition;
import java.util.Objects;

/**
 * A tool an agent may offer the LLM: its id, what it does, the JSON schema of its arguments and
 * whether a person must allow each call (issue 15).
 *
 * @param toolId the name the LLM calls and the dispatcher routes on, e.g. {@code query_ledger}
 * @param parameters a JSON Schema (draft 2020-12) describing an object of arguments
 * @param approval {@code never} or {@code required}; null: the default, {@code required} for a tool
 *     that writes and {@code never} for a read-only one (the runtime knows which tools write)
 * @param approvalTimeoutSeconds how long a call waits for a person; null: {@link #DEFAULT_APPROVAL_TIMEOUT_SECONDS}
 * @param approvalOnTimeout what a call nobody decided in time gets: {@code deny} (null: the default) or {@code grant}
 * @param timeoutSeconds how long one call of a Java or MCP tool may run (issue 22); null: the worker's
 *     default for its kind of tool. Built-in tools bound themselves.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolSpec(String toolId, String description, JsonNode parameters, String approval,
    Long approvalTimeoutSeconds, String approvalOnTimeout, Long timeoutSeconds) {
  public static final String NEVER = "never";
  public static final String REQUIRED = "required";
  public static final String DENY = "deny";
  public static final String GRANT = "grant";
  /**
   * A call waits 240 s for a person unless the tool says otherwise: within the default turn
   * deadline of 300 s ({@code budget.turn_timeout_seconds}), leaving a minute for the rest of
   * the turn, so the approval's own timeout, not the turn deadline, ends an unanswered wait.
   */
  public static final long DEFAULT_APPROVAL_TIMEOUT_SECONDS = 240;

  public ToolSpec {
    Objects.requireNonNull(toolId, "tool_id");
    description = description == null ? "" : description;
    parameters = parameters == null ? Json.object().put("type", "object") : parameters.deepCopy();
  }

  public ToolSpec(String toolId, String description, JsonNode parameters) {
    this(toolId, description, parameters, null, null, null, null);
  }

  /** A tool without a timeout of its own. */
  public ToolSpec(String toolId, String description, JsonNode parameters, String approval,
      Long approvalTimeoutSeconds, String approvalOnTimeout) {
    this(toolId, description, parameters, approval, approvalTimeoutSeconds, approvalOnTimeout, null);
  }

  /** Whether each call needs a person's decision: as configured, else whether the tool writes. */
  public boolean approvalRequired(java.util.Set<String> writingTools) {
    return approval == null ? writingTools.contains(toolId) : REQUIRED.equals(approval);
  }

  /** How long a call waits for a decision, in seconds. */
  public long effectiveApprovalTimeoutSeconds() {
    return approvalTimeoutSeconds == null ? DEFAULT_APPROVAL_TIMEOUT_SECONDS : approvalTimeoutSeconds;
  }

  /** Whether a call nobody decided in time runs anyway ({@code approval_on_timeout: grant}); the default denies. */
  public boolean grantOnTimeout() {
    return GRANT.equals(approvalOnTimeout);
  }

  @Override
  public JsonNode parameters() {
    return parameters.deepCopy();
  }

  /** The provider-neutral definition the gateway sends to the model. */
  public ToolDefinition toDefinition() {
    return new ToolDefinition(toolId, description, parameters);
  }
}
