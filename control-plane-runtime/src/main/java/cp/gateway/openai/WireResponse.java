package cp.gateway.openai;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * A successful chat completion. Message content and function arguments stay JSON trees: servers
 * differ (a string or an array of parts; arguments as a JSON string or an object).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
record WireResponse(String id, String model, List<Choice> choices, Usage usage) {

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Choice(Integer index, ChoiceMessage message, String finishReason) {}

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ChoiceMessage(String role, JsonNode content, List<ToolCall> toolCalls) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ToolCall(String id, String type, FunctionCall function) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record FunctionCall(String name, JsonNode arguments) {}

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Usage(Long promptTokens, Long completionTokens, PromptTokensDetails promptTokensDetails) {}

  /** Of the prompt tokens, those the server read from its prompt cache. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  record PromptTokensDetails(Long cachedTokens) {}
}
