package cp.tools.spi;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Derives the JSON Schema of a tool's arguments from a record: one property per component,
 * {@code additionalProperties: false}, every component required unless it is an {@code Optional}
 * or marked {@code @ToolParam(required = false)}.
 *
 * <p>Types map as Jackson reads them: strings, enums (as their constant names), booleans,
 * integers, numbers, {@code Optional}s of those, collections and arrays, maps with string keys,
 * nested records, {@link JsonNode} (any value), {@link UUID} and the usual {@code java.time}
 * types as formatted strings. Anything else, or a record that contains itself, is refused with
 * a message naming the component, when the descriptor is built.
 */
public final class ArgumentSchemas {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ArgumentSchemas() {}

  /** The schema of {@code arguments}. */
  public static ObjectNode of(Class<? extends Record> arguments) {
    if (arguments == null || !arguments.isRecord()) {
      throw new IllegalArgumentException("tool arguments must be a record class, got " + arguments);
    }
    return record(arguments, new ArrayDeque<>(), arguments.getSimpleName());
  }

  private static ObjectNode record(Class<?> type, Deque<Class<?>> enclosing, String at) {
    if (enclosing.contains(type)) {
      throw new IllegalArgumentException(at + ": record " + type.getSimpleName()
          + " contains itself; a tool's argument schema must be finite");
    }
    enclosing.push(type);
    ObjectNode schema = NODES.objectNode().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = NODES.arrayNode();
    for (RecordComponent c : type.getRecordComponents()) {
      String name = propertyName(c);
      ToolParam param = c.getAnnotation(ToolParam.class);
      ObjectNode property = schemaOf(c.getGenericType(), enclosing, at + "." + c.getName());
      if (param != null && !param.value().isBlank()) {
        property.put("description", param.value());
      }
      properties.set(name, property);
      boolean optional = isOptional(c.getType()) || (param != null && !param.required());
      if (!optional) {
        required.add(name);
      }
    }
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    schema.put("additionalProperties", false);
    enclosing.pop();
    return schema;
  }

  private static String propertyName(RecordComponent c) {
    JsonProperty p = c.getAnnotation(JsonProperty.class);
    if (p == null) {
      p = c.getAccessor().getAnnotation(JsonProperty.class);
    }
    return p != null && !p.value().isEmpty() ? p.value() : c.getName();
  }

  private static boolean isOptional(Class<?> raw) {
    return raw == Optional.class || raw == OptionalInt.class || raw == OptionalLong.class
        || raw == OptionalDouble.class;
  }

  private static ObjectNode schemaOf(Type type, Deque<Class<?>> enclosing, String at) {
    if (type instanceof WildcardType w) {
      return schemaOf(w.getUpperBounds()[0], enclosing, at);
    }
    if (type instanceof GenericArrayType g) {
      return array(schemaOf(g.getGenericComponentType(), enclosing, at + "[]"));
    }
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type[] args = p.getActualTypeArguments();
      if (raw == Optional.class) {
        return schemaOf(args[0], enclosing, at);
      }
      if (Collection.class.isAssignableFrom(raw)) {
        return array(schemaOf(args[0], enclosing, at + "[]"));
      }
      if (Map.class.isAssignableFrom(raw)) {
        if (args[0] != String.class) {
          throw unsupported(at, type, "a map's keys must be strings (JSON object keys)");
        }
        ObjectNode map = NODES.objectNode().put("type", "object");
        map.set("additionalProperties", schemaOf(args[1], enclosing, at + "{}"));
        return map;
      }
      throw unsupported(at, type, null);
    }
    if (!(type instanceof Class<?> c)) {
      throw unsupported(at, type, "type variables are not resolved; use a concrete type");
    }
    return classSchema(c, enclosing, at);
  }

  private static ObjectNode classSchema(Class<?> c, Deque<Class<?>> enclosing, String at) {
    if (c == String.class || c == char.class || c == Character.class || c == CharSequence.class) {
      return typed("string");
    }
    if (c == boolean.class || c == Boolean.class) {
      return typed("boolean");
    }
    if (c == int.class || c == long.class || c == short.class || c == byte.class || c == Integer.class
        || c == Long.class || c == Short.class || c == Byte.class || c == BigInteger.class
        || c == OptionalInt.class || c == OptionalLong.class) {
      return typed("integer");
    }
    if (c == double.class || c == float.class || c == Double.class || c == Float.class || c == BigDecimal.class
        || c == OptionalDouble.class) {
      return typed("number");
    }
    if (c.isEnum()) {
      ObjectNode e = typed("string");
      ArrayNode values = e.putArray("enum");
      for (Object constant : c.getEnumConstants()) {
        values.add(((Enum<?>) constant).name());
      }
      return e;
    }
    if (c.isArray()) {
      return array(classSchema(c.getComponentType(), enclosing, at + "[]"));
    }
    if (c.isRecord()) {
      return record(c, enclosing, at);
    }
    if (JsonNode.class.isAssignableFrom(c)) {
      return NODES.objectNode();
    }
    if (c == UUID.class) {
      return typed("string").put("format", "uuid");
    }
    if (c == LocalDate.class) {
      return typed("string").put("format", "date");
    }
    if (c == Instant.class || c == OffsetDateTime.class || c == LocalDateTime.class) {
      return typed("string").put("format", "date-time");
    }
    throw unsupported(at, c, null);
  }

  private static ObjectNode typed(String type) {
    return NODES.objectNode().put("type", type);
  }

  private static ObjectNode array(JsonNode items) {
    ObjectNode a = typed("array");
    a.set("items", items);
    return a;
  }

  private static IllegalArgumentException unsupported(String at, Type type, String why) {
    return new IllegalArgumentException(at + ": type " + type.getTypeName() + " has no JSON Schema mapping"
        + (why == null ? " (use a string, number, boolean, enum, record, collection, map or JsonNode)" : ": " + why));
  }
}
