package cp.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.SchemaValidator;
import cp.model.Json;
import cp.tools.registry.ExposedNames;
import cp.tools.registry.ToolOutput;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Sorts what one server lists into the tools that can be offered and those left out: a tool with
 * no name, one whose input schema is not a valid JSON Schema (the check the catalog makes of every
 * tool's parameters), one listed under a name already listed, or shown to the model under the same
 * name as one listed before it. The first of two is kept. A server's bad listing thus costs that
 * tool, never the worker's start.
 */
final class McpToolChecks {
  private final SchemaValidator validator;

  McpToolChecks(SchemaValidator validator) {
    this.validator = Objects.requireNonNull(validator, "validator");
  }

  /** The listing of {@code server}, in its order, with what is left out and why. */
  McpToolList check(String server, List<McpSchema.Tool> listed) {
    List<McpToolInfo> kept = new ArrayList<>();
    List<McpToolList.LeftOut> leftOut = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<String, String> byExposed = new HashMap<>();
    for (McpSchema.Tool t : listed) {
      String name = t.name() == null ? "" : t.name();
      if (name.isBlank()) {
        leftOut.add(new McpToolList.LeftOut(name, "it has no name"));
        continue;
      }
      if (names.contains(name)) {
        leftOut.add(new McpToolList.LeftOut(name, "listed twice; the first listing is kept"));
        continue;
      }
      String exposed = ExposedNames.ofMcp(server, name);
      String earlier = byExposed.get(exposed);
      if (earlier != null) {
        leftOut.add(new McpToolList.LeftOut(name, "it would be shown to the model as '" + exposed + "', like '"
            + earlier + "' listed before it"));
        continue;
      }
      JsonNode schema = t.inputSchema() == null ? Json.object().put("type", "object") : Json.tree(t.inputSchema());
      List<SchemaValidator.Violation> problems = validator.schemaProblems(schema);
      if (!problems.isEmpty()) {
        leftOut.add(new McpToolList.LeftOut(name, ToolOutput.message("its inputSchema is not a valid JSON Schema: "
            + problems.stream().map(SchemaValidator.Violation::toString).collect(Collectors.joining("; ")))));
        continue;
      }
      names.add(name);
      byExposed.put(exposed, name);
      kept.add(new McpToolInfo(name, t.description(), schema));
    }
    return McpToolList.of(kept, leftOut);
  }
}
