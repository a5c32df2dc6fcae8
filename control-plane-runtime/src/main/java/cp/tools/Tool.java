package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool the dispatcher runs: an id the agent configuration names and the code that runs it
 * (a built-in tool, or a Java or MCP tool of the worker's registry).
 *
 * <p>The {@link ToolDispatcher} has already checked that the agent may call the tool and that
 * the arguments match its schema (defaults filled in) before {@link #run} is called. A tool may
 * throw: {@link PathRefusedException} becomes a refused result with its code, anything else a
 * {@code tool_failure} result. Implementations are shared across threads and hold no per-call state.
 */
public interface Tool {
  /** The tool id agents configure, e.g. {@code read_file}. */
  String id();

  /** Runs one call; {@code args} is a JSON object that satisfied the tool's parameter schema. */
  ToolResult run(ToolContext ctx, JsonNode args);

  /** Where it comes from, as TOOL_CALL entries, spans and metrics name it: {@code builtin}, {@code java}, {@code mcp:<server>}. */
  default String origin() {
    return BUILTIN;
  }

  /** The list it came from now (an MCP server's), or empty for a tool that is not listed by a server. */
  default java.util.Optional<ToolListing> listing() {
    return java.util.Optional.empty();
  }

  /** The origin of the tools the product ships. */
  String BUILTIN = "builtin";
}
