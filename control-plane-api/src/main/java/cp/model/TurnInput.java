package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * What the session hands a TurnWorkflow: whose turn, which number, the text and the budget left;
 * from issue 23 on (sessions at {@code dollar-budgets} 1) also the dollars the session has spent
 * before the turn, when its agent has a dollar cap (null otherwise), and the session's tenant, which
 * its calls' EXCHANGEs record for spend reports.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TurnInput(String sessionId, int turn, String userMessage, long sessionTokensRemaining, AgentProfile profile,
    Double sessionUsdSpent, String tenant) {
  /** A turn without its session's tenant (before issue 23: the calls count as {@link TenantId#DEFAULT}'s). */
  public TurnInput(String sessionId, int turn, String userMessage, long sessionTokensRemaining, AgentProfile profile,
      Double sessionUsdSpent) {
    this(sessionId, turn, userMessage, sessionTokensRemaining, profile, sessionUsdSpent, null);
  }

  /** A turn of a session without dollar accounting (before issue 23). */
  public TurnInput(String sessionId, int turn, String userMessage, long sessionTokensRemaining, AgentProfile profile) {
    this(sessionId, turn, userMessage, sessionTokensRemaining, profile, null);
  }

  public TurnInput {
    Objects.requireNonNull(sessionId, "session_id");
    Objects.requireNonNull(userMessage, "user_message");
    Objects.requireNonNull(profile, "profile");
  }
}
