package cp.tools;

import cp.contracts.AgentConfig;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import java.util.Objects;

/**
 * What a tool call runs with: the calling agent's configuration, the plane it runs in, the
 * plane's ledgers, the agent's {@link PathPolicy} and the session the call belongs to.
 *
 * @param sessionId the session whose work order made the call ({@code SES-…}); null when the call
 *     belongs to no session, and then tools limited to the caller's session read nothing
 */
public record ToolContext(AgentConfig agent, PlaneLayout layout, Ledgers ledgers, PathPolicy paths, String sessionId) {
  public ToolContext {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(ledgers, "ledgers");
    Objects.requireNonNull(paths, "paths");
    sessionId = sessionId == null || sessionId.isBlank() ? null : sessionId;
  }

  /** The context of {@code agent} in the plane of {@code ledgers}, for a call of {@code sessionId}. */
  public static ToolContext of(AgentConfig agent, Ledgers ledgers, String sessionId) {
    PlaneLayout layout = ledgers.layout();
    return new ToolContext(agent, layout, ledgers, PathPolicy.forAgent(agent, layout.root()), sessionId);
  }

  /** The same agent and plane, for a call of another session. */
  public ToolContext withSession(String session) {
    return new ToolContext(agent, layout, ledgers, paths, session);
  }

  public String agentClass() {
    return agent.agentClass();
  }
}
