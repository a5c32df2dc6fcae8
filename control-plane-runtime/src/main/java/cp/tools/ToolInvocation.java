package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One tool call as the executor gets it: who calls, which tool with which arguments, what the
 * work order allows, and the call's idempotency key.
 *
 * @param workOrderId the work order whose tool loop made the call; null for a call outside one
 *     (a test, an operator's check)
 * @param toolId the tool's registry name ({@code read_file}, {@code get_weather},
 *     {@code everything/echo}), never the name a provider was shown
 * @param idempotencyKey the same on every retry of this call, different for every other call
 *     ({@link #key}); a Java tool gets it in its context, so an effect outside the plane can be
 *     made once
 */
public record ToolInvocation(String agentClass, String sessionId, String workOrderId, String toolId,
    JsonNode arguments, List<String> allowedTools, String idempotencyKey) {
  /** Prefix of the key of a call made outside any work order: it is never retried by Temporal. */
  static final String UNTRACKED = "untracked/";

  public ToolInvocation {
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
  }

  /** A call outside any work order: its key is unique, as nothing retries it. */
  public static ToolInvocation direct(String agentClass, String sessionId, String toolId, JsonNode arguments,
      List<String> allowedTools) {
    return new ToolInvocation(agentClass, sessionId, null, toolId, arguments, allowedTools, untracked());
  }

  /**
   * The idempotency key of a work order's tool call: the turn's workflow, the work order, the round
   * and the call's place in it. Every attempt of the activity running the call derives the same key
   * (the attempt is not part of it); any other call differs in one of the parts.
   */
  public static String key(String workflowId, String workOrderId, int round, int callIndex) {
    return workflowId + "/" + workOrderId + "/round-" + round + "/call-" + callIndex;
  }

  static String untracked() {
    return UNTRACKED + UUID.randomUUID();
  }
}
