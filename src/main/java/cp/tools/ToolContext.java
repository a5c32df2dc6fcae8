package cp.tools;

import cp.contracts.AgentConfig;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import java.util.Objects;

/**
 * What a tool call runs with: the calling agent's configuration, the plane it runs in, the
 * plane's ledgers and the agent's {@link PathPolicy}.
 */
public record ToolContext(AgentConfig agent, PlaneLayout layout, Ledgers ledgers, PathPolicy paths) {
  public ToolContext {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(ledgers, "ledgers");
    Objects.requireNonNull(paths, "paths");
  }

  /** The context of {@code agent} in the plane of {@code ledgers}. */
  public static ToolContext of(AgentConfig agent, Ledgers ledgers) {
    PlaneLayout layout = ledgers.layout();
    return new ToolContext(agent, layout, ledgers, PathPolicy.forAgent(agent, layout.root()));
  }

  public String agentClass() {
    return agent.agentClass();
  }
}
