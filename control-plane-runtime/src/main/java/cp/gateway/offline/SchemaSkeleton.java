package cp.gateway.offline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;

/**
 * The smallest value that satisfies a JSON schema's required parts, for contracts the offline
 * model has no rules for.
 *
 * <p>{@code const} wins, then the first {@code enum} value, then by type: strings get
 * {@value #PLACEHOLDER_TEXT} (padded or cut to minLength/maxLength), numbers 0 (or their
 * minimum), booleans false, arrays [] (or minItems copies of their item skeleton), objects
 * their required properties, recursively, and null null. A schema without a type but with
 * properties is taken as an object; one with nothing to go on gets the placeholder text.
 */
public final class SchemaSkeleton {
  public static final String PLACEHOLDER_TEXT = "offline";
  /** Deeper than any contract we write; stops self-referencing schemas from recursing forever. */
  public static final int MAX_DEPTH = 16;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private SchemaSkeleton() {}

  /** A value satisfying {@code schema}. */
  public static JsonNode of(JsonNode schema) {
    return value(schema, 0);
  }

  /** Adds every required property {@code schema} names that {@code target} lacks; keeps the rest. */
  public static ObjectNode fillRequired(ObjectNode target, JsonNode schema) {
    if (schema == null || !schema.path("required").isArray()) {
      return target;
    }
    for (JsonNode name : schema.get("required")) {
      if (name.isTextual() && !target.has(name.asText())) {
        target.set(name.asText(), value(schema.path("properties").path(name.asText()), 1));
      }
    }
    return target;
  }

  /** Whether {@code schema} describes a JSON object (declared or implied by properties). */
  public static boolean isObjectSchema(JsonNode schema) {
    return schema != null && ("object".equals(type(schema)) || (type(schema) == null && schema.has("properties")));
  }

  private static JsonNode value(JsonNode schema, int depth) {
    if (schema == null || !schema.isObject() || depth > MAX_DEPTH) {
      return NODES.textNode(PLACEHOLDER_TEXT);
    }
    if (schema.has("const")) {
      return schema.get("const").deepCopy();
    }
    JsonNode enumValues = schema.path("enum");
    if (enumValues.isArray() && enumValues.size() > 0) {
      return enumValues.get(0).deepCopy();
    }
    String type = type(schema);
    if (type == null) {
      type = schema.has("properties") ? "object" : "string";
    }
    return switch (type) {
      case "object" -> {
        ObjectNode object = Json.object();
        for (JsonNode name : schema.path("required")) {
          object.set(name.asText(), value(schema.path("properties").path(name.asText()), depth + 1));
        }
        yield object;
      }
      case "array" -> {
        ArrayNode array = Json.array();
        for (int i = 0; i < schema.path("minItems").asInt(0); i++) {
          array.add(value(schema.get("items"), depth + 1));
        }
        yield array;
      }
      case "integer" -> integer((long) Math.max(0, Math.ceil(schema.path("minimum").asDouble(0))));
      case "number" -> NODES.numberNode(Math.max(0, schema.path("minimum").asDouble(0)));
      case "boolean" -> NODES.booleanNode(false);
      case "null" -> NODES.nullNode();
      default -> NODES.textNode(text(schema));
    };
  }

  /** An int node when the value fits, as a parser would produce for the same JSON. */
  private static JsonNode integer(long value) {
    return value <= Integer.MAX_VALUE ? NODES.numberNode((int) value) : NODES.numberNode(value);
  }

  private static String text(JsonNode schema) {
    StringBuilder sb = new StringBuilder(PLACEHOLDER_TEXT);
    int min = schema.path("minLength").asInt(0);
    while (sb.length() < min) {
      sb.append(' ').append(PLACEHOLDER_TEXT);
    }
    int max = schema.path("maxLength").asInt(Integer.MAX_VALUE);
    return sb.length() > max ? sb.substring(0, max) : sb.toString();
  }

  /** The declared type; for a type list, its first entry other than null. */
  private static String type(JsonNode schema) {
    JsonNode t = schema.get("type");
    if (t == null) {
      return null;
    }
    if (t.isTextual()) {
      return t.asText();
    }
    for (JsonNode each : t) {
      if (!"null".equals(each.asText())) {
        return each.asText();
      }
    }
    return t.size() > 0 ? "null" : null;
  }
}
