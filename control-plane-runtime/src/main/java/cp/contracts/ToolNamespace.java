package cp.contracts;

import java.util.List;

/**
 * The tool names an agent file may grant: what the catalog's "unknown tool" check asks.
 *
 * <p>The worker's tool registry (built-in, Java and MCP tools, {@code cp.tools.registry}) is one;
 * the catalog sits below the tools and knows only this view of it.
 */
public interface ToolNamespace {
  /** Every known name, in the order messages list them. */
  List<String> names();

  /** Whether an agent may name {@code toolId}. */
  default boolean contains(String toolId) {
    return names().contains(toolId);
  }

  /** A fixed list of names; an empty list allows any name (no tool check). */
  static ToolNamespace of(List<String> names) {
    List<String> copy = List.copyOf(names);
    return () -> copy;
  }
}
