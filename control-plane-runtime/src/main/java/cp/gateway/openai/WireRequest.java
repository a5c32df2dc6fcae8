package cp.gateway.openai;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** The body of {@code POST /chat/completions}; absent optional fields are left out of the JSON. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record WireRequest(String model, List<Message> messages, int maxTokens, Double temperature, List<Tool> tools) {

  /** A system, user, assistant or tool message; which fields are set depends on the role. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Message(String role, String content, List<ToolCall> toolCalls, String toolCallId) {}

  /** An assistant's call of a function; {@code arguments} is JSON encoded as a string. */
  record ToolCall(String id, String type, FunctionCall function) {}

  record FunctionCall(String name, String arguments) {}

  /** A function the model may call. */
  record Tool(String type, Function function) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Function(String name, String description, JsonNode parameters) {}
}
