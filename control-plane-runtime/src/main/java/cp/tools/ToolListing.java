package cp.tools;

import java.util.List;
import java.util.Objects;

/**
 * The list a tool came from, as it stands: an MCP server's tools with the hash over their names,
 * descriptions and schemas. A session records the listings of the tools it is offered
 * ({@code MCP_TOOL_LIST}), so a server whose tools changed shows a changed hash.
 *
 * @param origin {@code mcp:<server>}
 * @param hash SHA-256 (hex) of the server's list
 * @param tools the server's own names of its tools, as listed
 */
public record ToolListing(String origin, String hash, List<String> tools) {
  public ToolListing {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(hash, "hash");
    tools = List.copyOf(tools);
  }
}
