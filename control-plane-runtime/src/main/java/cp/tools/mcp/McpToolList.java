package cp.tools.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The tools one server offered at one moment, with a hash over their names, descriptions and
 * schemas: a server that changed its tools (a new tool, another description) shows a changed hash,
 * which is what a session's record of "the list it saw" compares.
 *
 * @param tools the tools that can be offered, in the server's order
 * @param hash SHA-256 (hex) of the canonical JSON of {@code tools} sorted by name
 * @param leftOut what the server listed that cannot be offered (a schema that is not a JSON Schema,
 *     a name listed twice), with why: never in {@code tools}
 */
public record McpToolList(List<McpToolInfo> tools, String hash, List<LeftOut> leftOut) {
  public McpToolList {
    tools = List.copyOf(tools);
    Objects.requireNonNull(hash, "hash");
    leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
  }

  /** A tool the server listed that is not offered, and why (one line). */
  public record LeftOut(String tool, String problem) {
    public LeftOut {
      Objects.requireNonNull(tool, "tool");
      Objects.requireNonNull(problem, "problem");
    }
  }

  public static final McpToolList EMPTY = of(List.of());

  /** The list of {@code tools} with its hash, nothing left out. */
  public static McpToolList of(List<McpToolInfo> tools) {
    return of(tools, List.of());
  }

  /** The list of {@code tools} with its hash, and what the server listed beside them that is left out. */
  public static McpToolList of(List<McpToolInfo> tools, List<LeftOut> leftOut) {
    ArrayNode canonical = JsonNodeFactory.instance.arrayNode();
    tools.stream().sorted(Comparator.comparing(McpToolInfo::name)).forEach(t -> canonical.addObject()
        .put("name", t.name()).put("description", t.description()).set("input_schema", t.inputSchema()));
    String hash = Json.sha256(Json.canonical(canonical).getBytes(StandardCharsets.UTF_8));
    return new McpToolList(tools, hash, leftOut);
  }

  public Optional<McpToolInfo> find(String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  public List<String> names() {
    return tools.stream().map(McpToolInfo::name).toList();
  }
}
