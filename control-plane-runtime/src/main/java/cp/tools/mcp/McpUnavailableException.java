package cp.tools.mcp;

/** An MCP server cannot be started, reached or listed; the message names the server, never its env or headers. */
public class McpUnavailableException extends RuntimeException {
  private final String server;
  private final String reason;

  public McpUnavailableException(String server, String reason) {
    super("MCP server '" + server + "' is unavailable: " + reason);
    this.server = server;
    this.reason = reason;
  }

  public String server() {
    return server;
  }

  public String reason() {
    return reason;
  }
}
