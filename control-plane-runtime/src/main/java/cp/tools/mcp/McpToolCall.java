package cp.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import cp.tools.Tool;
import cp.tools.ToolContext;
import cp.tools.ToolResult;
import cp.tools.ToolListing;
import cp.tools.registry.CallTimeouts;
import cp.tools.registry.ToolOrigin;
import cp.tools.registry.ToolRegistry;
import java.util.Objects;
import java.util.Optional;

/**
 * An MCP tool as the dispatcher runs it: registered as {@code <server>/<tool>}, called on its
 * server's connection by the server's own name, bounded by the agent's {@code timeout_seconds} for
 * it or the connection's request timeout. The call's context is not sent to the server: MCP's
 * {@code _meta} gets nothing.
 */
public final class McpToolCall implements Tool {
  private final McpConnection connection;
  private final String tool;

  /** @param tool the server's own name of the tool */
  public McpToolCall(McpConnection connection, String tool) {
    this.connection = Objects.requireNonNull(connection, "mcp connection");
    this.tool = Objects.requireNonNull(tool, "tool");
  }

  @Override
  public String id() {
    return connection.spec().name() + ToolRegistry.MCP_SEPARATOR + tool;
  }

  @Override
  public String origin() {
    return ToolOrigin.mcp(connection.spec().name()).wireName();
  }

  @Override
  public Optional<ToolListing> listing() {
    McpToolList list = connection.tools();
    return Optional.of(new ToolListing(origin(), list.hash(), list.names()));
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    return connection.call(tool, args, CallTimeouts.of(ctx, id(), connection.settings().requestTimeout()));
  }
}
