package cp.tools;

import cp.contracts.AgentConfig;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.tools.spi.ToolCallContext;
import java.util.Objects;

/**
 * What a tool call runs with: the calling agent's configuration, the plane it runs in, the
 * plane's ledgers, the agent's {@link PathPolicy}, the session the call belongs to, and the
 * call's identity (its work order and idempotency key).
 *
 * @param sessionId the session whose work order made the call ({@code SES-…}); null when the call
 *     belongs to no session, and then tools limited to the caller's session read nothing
 * @param workOrderId the work order whose tool loop made the call, or null outside one
 * @param idempotencyKey the same on every retry of the same call ({@link ToolInvocation}), or null
 *     outside a work order
 */
public record ToolContext(AgentConfig agent, PlaneLayout layout, Ledgers ledgers, PathPolicy paths, String sessionId,
    String workOrderId, String idempotencyKey) {
  public ToolContext {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(ledgers, "ledgers");
    Objects.requireNonNull(paths, "paths");
    sessionId = sessionId == null || sessionId.isBlank() ? null : sessionId;
  }

  /** A context outside any work order. */
  public ToolContext(AgentConfig agent, PlaneLayout layout, Ledgers ledgers, PathPolicy paths, String sessionId) {
    this(agent, layout, ledgers, paths, sessionId, null, null);
  }

  /** The context of {@code agent} in the plane of {@code ledgers}, for a call of {@code sessionId}. */
  public static ToolContext of(AgentConfig agent, Ledgers ledgers, String sessionId) {
    PlaneLayout layout = ledgers.layout();
    return new ToolContext(agent, layout, ledgers, PathPolicy.forAgent(agent, layout.root()), sessionId);
  }

  /** The same agent and plane, for a call of another session. */
  public ToolContext withSession(String session) {
    return new ToolContext(agent, layout, ledgers, paths, session, workOrderId, idempotencyKey);
  }

  /** The same agent, plane and session, for the call {@code call}. */
  public ToolContext forCall(ToolInvocation call) {
    return new ToolContext(agent, layout, ledgers, paths, call.sessionId(), call.workOrderId(),
        call.idempotencyKey());
  }

  public String agentClass() {
    return agent.agentClass();
  }

  /**
   * What a Java tool (and an MCP server, through its allow-list) is told about the call: the SPI's
   * record, which holds no runtime type.
   */
  public ToolCallContext callContext() {
    return new ToolCallContext(sessionId == null ? "" : sessionId, agent.agentClass(),
        workOrderId == null ? "" : workOrderId, idempotencyKey == null ? ToolInvocation.untracked() : idempotencyKey);
  }
}
