package cp.tools.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/**
 * One tool of the registry.
 *
 * @param name the name grants, approvals and calls use: {@code read_file}, {@code get-weather},
 *     {@code <server>/<tool>} for an MCP tool (the server's own tool name after the slash)
 * @param exposedName the name a model provider is shown ({@link ExposedNames}); a tool call the
 *     model makes under it is mapped back to {@code name}
 * @param origin builtin, java or mcp:&lt;server&gt;
 * @param source where exactly it came from, for messages: {@code built in}, the jar or directory,
 *     the MCP server's command or URL (never its environment or headers)
 * @param description what the model is told; empty for a built-in tool, whose description and
 *     schema each agent file gives
 * @param argumentsSchema the JSON Schema of its arguments; empty for a built-in tool
 */
public record RegisteredTool(String name, String exposedName, ToolOrigin origin, String source, String description,
    Optional<JsonNode> argumentsSchema) {
  public RegisteredTool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(exposedName, "exposedName");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(source, "source");
    description = description == null ? "" : description;
    argumentsSchema = argumentsSchema == null ? Optional.empty() : argumentsSchema.map(JsonNode::deepCopy);
  }

  @Override
  public Optional<JsonNode> argumentsSchema() {
    return argumentsSchema.map(JsonNode::deepCopy);
  }

  /** {@code name (origin, source)}: how a duplicate is reported. */
  public String describe() {
    return name + " (" + origin.wireName() + ", " + source + ")";
  }
}
