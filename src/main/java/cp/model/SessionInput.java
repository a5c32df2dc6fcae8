package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * Starts (or continues as new) a SessionWorkflow. {@code carried} is null for a new session and
 * holds the state of the previous run after continue-as-new; {@code continueAsNewAfterTurns}
 * (0: the workflow's default) bounds the turns of one run.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionInput(String sessionId, String agentClass, SessionState carried, int continueAsNewAfterTurns) {
  public SessionInput {
    Objects.requireNonNull(sessionId, "session_id");
    Objects.requireNonNull(agentClass, "agent_class");
  }
}
