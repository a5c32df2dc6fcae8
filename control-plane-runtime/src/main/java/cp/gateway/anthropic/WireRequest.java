package cp.gateway.anthropic;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** The body of {@code POST /v1/messages}; absent optional fields are left out of the JSON. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record WireRequest(
    String model,
    int maxTokens,
    Double temperature,
    String system,
    List<Message> messages,
    List<Tool> tools) {

  /** One user or assistant turn. */
  record Message(String role, List<Block> content) {}

  /** A text, tool_use or tool_result content block. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Block(
      String type, String text, String id, String name, JsonNode input, String toolUseId, String content,
      Boolean isError) {}

  /** A client tool the model may call. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Tool(String name, String description, JsonNode inputSchema) {}
}
