/**
 * The worker's MCP client, on the official MCP Java SDK ({@code mcp-core} with
 * {@code mcp-json-jackson2}): one {@link cp.tools.mcp.McpConnection} per server, stdio or
 * streamable HTTP, kept for many calls and started again when it dies.
 *
 * <p>SDK types stay inside this package: what leaves it are our records
 * ({@link cp.tools.mcp.McpToolInfo}, {@link cp.tools.mcp.McpToolList}) and
 * {@link cp.tools.ToolResult}s, so an SDK upgrade changes one package.
 */
package cp.tools.mcp;
