package cp.tools.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The tools one server offered at one moment, with a hash over their names, descriptions and
 * schemas: a server that changed its tools (a new tool, another description) shows a changed hash,
 * which is what a session's record of "the list it saw" compares.
 *
 * @param hash SHA-256 (hex) of the canonical JSON of the tools sorted by name
 */
public record McpToolList(List<McpToolInfo> tools, String hash) {
  public McpToolList {
    tools = List.copyOf(tools);
  }

  public static final McpToolList EMPTY = of(List.of());

  /** The list of {@code tools} with its hash. */
  public static McpToolList of(List<McpToolInfo> tools) {
    ArrayNode canonical = JsonNodeFactory.instance.arrayNode();
    tools.stream().sorted(Comparator.comparing(McpToolInfo::name)).forEach(t -> canonical.addObject()
        .put("name", t.name()).put("description", t.description()).set("input_schema", t.inputSchema()));
    String hash = Json.sha256(Json.canonical(canonical).getBytes(StandardCharsets.UTF_8));
    return new McpToolList(tools, hash);
  }

  public Optional<McpToolInfo> find(String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  public List<String> names() {
    return tools.stream().map(McpToolInfo::name).toList();
  }
}
