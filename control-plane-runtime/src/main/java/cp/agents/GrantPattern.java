package cp.agents;

import cp.tools.mcp.McpServerSpec;
import cp.tools.registry.ToolRegistry;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A tool grant or approval pattern of a definition: a tool name ({@code read_file},
 * {@code get-weather}), one MCP tool ({@code <server>/<tool>}, the server's own tool name) or
 * every tool of a server ({@code <server>/*}).
 *
 * @param server the MCP server, or null for a built-in or Java tool
 * @param tool the tool name, or {@code *} for every tool of {@code server}
 */
record GrantPattern(String server, String tool) {
  /** Built-in and Java tool names (what every provider accepts). */
  static final Pattern TOOL = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  /** An MCP tool's own name: the MCP specification allows letters, digits, _, -, . up to 128 characters. */
  static final Pattern MCP_TOOL = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
  static final String ALL = "*";
  static final String SYNTAX = "a grant is a tool name (letters, digits, _ and -), <server>/<tool> or <server>/*";

  /** The pattern {@code text} writes, or empty when it is malformed. */
  static Optional<GrantPattern> parse(String text) {
    int slash = text.indexOf(ToolRegistry.MCP_SEPARATOR);
    if (slash < 0) {
      return TOOL.matcher(text).matches() ? Optional.of(new GrantPattern(null, text)) : Optional.empty();
    }
    String server = text.substring(0, slash);
    String tool = text.substring(slash + 1);
    if (!McpServerSpec.NAME.matcher(server).matches()) {
      return Optional.empty();
    }
    return tool.equals(ALL) || MCP_TOOL.matcher(tool).matches() ? Optional.of(new GrantPattern(server, tool))
        : Optional.empty();
  }

  boolean mcp() {
    return server != null;
  }

  boolean wholeServer() {
    return ALL.equals(tool);
  }

  /** Whether this pattern covers {@code other} (an approval pattern covered by a grant, or a tool name). */
  boolean covers(GrantPattern other) {
    if (!mcp()) {
      return !other.mcp() && tool.equals(other.tool);
    }
    return server.equals(other.server) && (wholeServer() || tool.equals(other.tool));
  }

  /** Whether this pattern names the registry tool {@code name} ({@code read_file}, {@code everything/echo}). */
  boolean matches(String name) {
    return parse(name).map(this::covers).orElse(false);
  }

  @Override
  public String toString() {
    return mcp() ? server + ToolRegistry.MCP_SEPARATOR + tool : tool;
  }
}
