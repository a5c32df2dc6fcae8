package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/** A tool the LLM may call: name, description and a JSON schema for its arguments. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolDefinition(String name, String description, JsonNode inputSchema) {
  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    inputSchema = inputSchema == null ? Json.object().put("type", "object") : inputSchema.deepCopy();
  }
}
