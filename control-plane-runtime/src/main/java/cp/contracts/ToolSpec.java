package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.model.Json;
import cp.model.ToolDefinition;
import java.util.Objects;

/**
 * A tool an agent may offer the LLM: its id, what it does, and the JSON schema of its arguments.
 *
 * @param toolId the name the LLM calls and the dispatcher routes on, e.g. {@code query_ledger}
 * @param parameters a JSON Schema (draft 2020-12) describing an object of arguments
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolSpec(String toolId, String description, JsonNode parameters) {

  public ToolSpec {
    Objects.requireNonNull(toolId, "tool_id");
    description = description == null ? "" : description;
    parameters = parameters == null ? Json.object().put("type", "object") : parameters.deepCopy();
  }

  @Override
  public JsonNode parameters() {
    return parameters.deepCopy();
  }

  /** The provider-neutral definition the gateway sends to the model. */
  public ToolDefinition toDefinition() {
    return new ToolDefinition(toolId, description, parameters);
  }
}
