package cp.gateway.anthropic;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * A successful Messages API response. Content blocks stay JSON trees so that block types we do
 * not use (thinking, server tools) can be skipped instead of failing the parse.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
record WireResponse(String id, String type, String model, List<JsonNode> content, String stopReason, Usage usage) {

  /** Billed tokens; the cache fields appear only when prompt caching is used. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Usage(Long inputTokens, Long outputTokens, Long cacheCreationInputTokens, Long cacheReadInputTokens) {}
}
