package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * An agent's approval policy for one tool that needs a person's decision before each call
 * (issue 15), as the session's {@link AgentProfile} carries it.
 *
 * @param toolId the tool, e.g. {@code write_file}
 * @param timeoutSeconds how long a call waits for a decision
 * @param grantOnTimeout whether a call nobody decided in time runs anyway (default: it does not)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolApproval(String toolId, long timeoutSeconds, boolean grantOnTimeout) {
  public ToolApproval {
    Objects.requireNonNull(toolId, "tool_id");
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException("approval timeout of " + toolId + " must be at least 1 s, got "
          + timeoutSeconds);
    }
  }
}
