package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/** One tool call of a turn: the tool, its arguments, its result and whether the result was an error. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RecordedToolCall(String tool, JsonNode arguments, JsonNode result, boolean error) {
  public RecordedToolCall {
    arguments = arguments == null || arguments.isNull() || arguments.isMissingNode() ? null : arguments;
    result = result == null || result.isNull() || result.isMissingNode() ? null : result;
    Objects.requireNonNull(tool, "tool");
  }
}
