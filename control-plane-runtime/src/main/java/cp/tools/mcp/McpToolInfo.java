package cp.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One tool an MCP server lists, converted from the SDK's type at the edge.
 *
 * @param name the server's own name for it (called by this name)
 * @param description what the server says it does (may be empty)
 * @param inputSchema the JSON Schema of its arguments
 */
public record McpToolInfo(String name, String description, JsonNode inputSchema) {
  public McpToolInfo {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    Objects.requireNonNull(inputSchema, "inputSchema");
    inputSchema = inputSchema.deepCopy();
  }

  @Override
  public JsonNode inputSchema() {
    return inputSchema.deepCopy();
  }
}
