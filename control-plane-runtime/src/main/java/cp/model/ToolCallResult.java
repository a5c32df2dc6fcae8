package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The outcome of one tool call; the tool's output lives in the HO1m TOOL_CALL entry.
 *
 * @param status ok, error or refused (not allowed, outside the permitted paths, bad arguments)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolCallResult(String entryId, String toolUseId, String toolName, String status, String errorCode) {
  public boolean ok() {
    return "ok".equals(status);
  }
}
