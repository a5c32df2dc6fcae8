package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.Map;

/**
 * Fills in the {@code default} of each top-level property of a parameter schema that the
 * arguments leave out, so a tool sees the defaults its agent configures (RESIDENT's
 * {@code max_entries} default differs from ADMIN's) instead of repeating them in code.
 */
final class ArgumentDefaults {
  private ArgumentDefaults() {}

  /** A copy of {@code args} (an object) with the schema's property defaults added where absent. */
  static ObjectNode apply(JsonNode schema, JsonNode args) {
    ObjectNode out = args != null && args.isObject() ? ((ObjectNode) args).deepCopy() : Json.object();
    JsonNode properties = schema == null ? null : schema.get("properties");
    if (properties == null || !properties.isObject()) {
      return out;
    }
    for (Map.Entry<String, JsonNode> p : properties.properties()) {
      JsonNode def = p.getValue().get("default");
      if (def != null && !out.has(p.getKey())) {
        out.set(p.getKey(), def.deepCopy());
      }
    }
    return out;
  }
}
