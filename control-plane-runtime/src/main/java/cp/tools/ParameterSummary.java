package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A one-line description of a tool's parameter schema for an {@code invalid_arguments} message,
 * so the model learns what to send: {@code an object with path (string, required) and nothing else}.
 */
final class ParameterSummary {
  private ParameterSummary() {}

  static String of(JsonNode schema) {
    JsonNode properties = schema.path("properties");
    Set<String> required = new HashSet<>();
    schema.path("required").forEach(r -> required.add(r.asText()));
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> p : properties.properties()) {
      JsonNode s = p.getValue();
      StringBuilder sb = new StringBuilder(p.getKey()).append(" (").append(s.path("type").asText("any"));
      if (s.has("enum")) {
        List<String> values = new ArrayList<>();
        s.get("enum").forEach(v -> values.add(v.asText()));
        sb.append(" one of ").append(String.join("|", values));
      }
      if (s.has("minimum") || s.has("maximum")) {
        sb.append(' ').append(s.path("minimum").asText("")).append("..").append(s.path("maximum").asText(""));
      }
      if (required.contains(p.getKey())) {
        sb.append(", required");
      }
      parts.add(sb.append(')').toString());
    }
    if (parts.isEmpty()) {
      return "an object with no arguments: {}";
    }
    boolean closed = schema.path("additionalProperties").isBoolean() && !schema.get("additionalProperties").asBoolean();
    return "an object with " + String.join(", ", parts) + (closed ? " and nothing else" : "");
  }
}
