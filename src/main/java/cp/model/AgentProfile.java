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
    int maxResponseChars) {

  public AgentProfile {
    Objects.requireNonNull(agentClass, "agent_class");
    toolIds = toolIds == null ? List.of() : List.copyOf(toolIds);
  }
}
