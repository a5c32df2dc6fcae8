package cp.tools.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the model is told about a tool: its name, what it does, and the JSON Schema of its
 * arguments. Immutable; built once when the worker starts, never during a call.
 *
 * <p>The schema describes a JSON object (draft 2020-12). Give it as JSON text, as a tree, or
 * derive it from a record of the arguments ({@link #of(String, String, Class)}), which yields
 * {@code additionalProperties: false}. What this constructor cannot check (that the schema is a
 * valid JSON Schema) the worker checks at registration, naming the jar and the tool.
 *
 * @param name the name grants, approvals and the model use: letters, digits, {@code _} and
 *     {@code -}, at most {@value #MAX_NAME_LENGTH} characters (what every provider accepts)
 * @param description what the tool does and when to use it, for the model
 * @param argumentsSchema JSON Schema of the arguments object; a copy is kept and returned
 */
public record ToolDescriptor(String name, String description, JsonNode argumentsSchema) {
  /** Providers' common limit on a tool name (Anthropic and OpenAI both allow 64). */
  public static final int MAX_NAME_LENGTH = 64;
  /** The characters every provider accepts in a tool name. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_NAME_LENGTH + "}");

  private static final ObjectMapper JSON = new ObjectMapper();

  public ToolDescriptor {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("tool name '" + name + "' must be 1 to " + MAX_NAME_LENGTH
          + " letters, digits, _ or - (what every model provider accepts)");
    }
    Objects.requireNonNull(description, "description of tool " + name);
    if (description.isBlank()) {
      throw new IllegalArgumentException("tool " + name + " has a blank description: the model chooses tools by it");
    }
    Objects.requireNonNull(argumentsSchema, "argumentsSchema of tool " + name);
    if (!argumentsSchema.isObject() || !"object".equals(argumentsSchema.path("type").asText())) {
      throw new IllegalArgumentException("the argument schema of tool " + name
          + " must be a JSON Schema object with \"type\": \"object\" (a tool's arguments are a JSON object)");
    }
    argumentsSchema = argumentsSchema.deepCopy();
  }

  @Override
  public JsonNode argumentsSchema() {
    return argumentsSchema.deepCopy();
  }

  /** A descriptor whose argument schema is given as JSON text. */
  public static ToolDescriptor of(String name, String description, String argumentsSchemaJson) {
    Objects.requireNonNull(argumentsSchemaJson, "argumentsSchemaJson of tool " + name);
    try {
      return new ToolDescriptor(name, description, JSON.readTree(argumentsSchemaJson));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the argument schema of tool " + name + " is not valid JSON: "
          + e.getOriginalMessage(), e);
    }
  }

  /** A descriptor whose argument schema is derived from the record {@code arguments}. */
  public static ToolDescriptor of(String name, String description, Class<? extends Record> arguments) {
    return new ToolDescriptor(name, description, ArgumentSchemas.of(arguments));
  }
}
