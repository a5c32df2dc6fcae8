package cp.tools.registry;

import cp.contracts.BuiltinToolIds;
import cp.contracts.ToolNamespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every tool a worker has, in one namespace: built-in, Java and MCP tools, each with its origin.
 *
 * <p>Immutable and safe to share. {@link #of} refuses two tools with the same name or the same
 * exposed name, naming both with their origins; the catalog's "unknown tool" check asks this
 * registry ({@link ToolNamespace}).
 */
public final class ToolRegistry implements ToolNamespace {
  /** The separator of an MCP tool's name: {@code <server>/<tool>}. */
  public static final String MCP_SEPARATOR = "/";

  private final Map<String, RegisteredTool> byName;
  private final Map<String, RegisteredTool> byExposedName;

  private ToolRegistry(Map<String, RegisteredTool> byName, Map<String, RegisteredTool> byExposedName) {
    this.byName = byName;
    this.byExposedName = byExposedName;
  }

  /**
   * The registry of {@code tools}, in their order.
   *
   * @throws ToolRegistryException naming every duplicate name or exposed name and both origins
   */
  public static ToolRegistry of(List<RegisteredTool> tools) {
    Map<String, RegisteredTool> byName = new LinkedHashMap<>();
    Map<String, RegisteredTool> byExposed = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (RegisteredTool t : tools) {
      RegisteredTool sameName = byName.putIfAbsent(t.name(), t);
      if (sameName != null) {
        problems.add("duplicate tool name '" + t.name() + "': " + sameName.describe() + " and " + t.describe()
            + "; rename one or remove one");
        continue;
      }
      RegisteredTool sameExposed = byExposed.putIfAbsent(t.exposedName(), t);
      if (sameExposed != null) {
        byName.remove(t.name());
        problems.add("tools " + sameExposed.describe() + " and " + t.describe() + " would both be shown to the model"
            + " as '" + t.exposedName() + "'; rename one or remove one");
      }
    }
    if (!problems.isEmpty()) {
      throw new ToolRegistryException(problems);
    }
    return new ToolRegistry(java.util.Collections.unmodifiableMap(byName),
        java.util.Collections.unmodifiableMap(byExposed));
  }

  /** The built-in tools as registry entries. */
  public static List<RegisteredTool> builtins() {
    return BuiltinToolIds.ALL.stream().map(id -> new RegisteredTool(id, ExposedNames.of(id), ToolOrigin.BUILTIN,
        "built in", "", Optional.empty())).toList();
  }

  /** A registry of the built-in tools alone. */
  public static ToolRegistry ofBuiltins() {
    return of(builtins());
  }

  @Override
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }

  @Override
  public boolean contains(String toolId) {
    return byName.containsKey(toolId);
  }

  public List<RegisteredTool> all() {
    return List.copyOf(byName.values());
  }

  public Optional<RegisteredTool> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The tool a model called by its exposed name. */
  public Optional<RegisteredTool> byExposedName(String exposedName) {
    return Optional.ofNullable(byExposedName.get(exposedName));
  }

  /** The tools of one MCP server, in the order the server listed them. */
  public List<RegisteredTool> ofServer(String server) {
    return byName.values().stream().filter(t -> server.equals(t.origin().server())).toList();
  }

  /**
   * The tools a grant or approval pattern names: one name, or every tool of a server for
   * {@code <server>/*}. Empty when it names none.
   */
  public List<RegisteredTool> matching(String pattern) {
    if (pattern.endsWith(MCP_SEPARATOR + "*")) {
      return ofServer(pattern.substring(0, pattern.length() - 2));
    }
    return find(pattern).map(List::of).orElse(List.of());
  }
}
