package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One built-in tool: an id the agent configuration names and the code that runs it.
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
}
