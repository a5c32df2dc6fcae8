package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/** What the session hands a TurnWorkflow: whose turn, which number, the text and the budget left. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TurnInput(String sessionId, int turn, String userMessage, long sessionTokensRemaining, AgentProfile profile) {
  public TurnInput {
    Objects.requireNonNull(sessionId, "session_id");
    Objects.requireNonNull(userMessage, "user_message");
    Objects.requireNonNull(profile, "profile");
  }
}
