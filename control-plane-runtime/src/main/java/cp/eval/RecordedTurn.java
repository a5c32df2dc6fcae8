package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * What a turn recorded: its reply text, its structured result (null when the turn had no output
 * schema), its outcome, whether the quality gate passed, the tools it called (arguments and results,
 * which a run replays), its cost and tokens.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RecordedTurn(String reply, JsonNode result, String outcome, boolean gatePassed,
                           List<RecordedToolCall> tools, Double costUsd, long inputTokens,
                           long outputTokens) {
  public RecordedTurn {
    result = result == null || result.isNull() || result.isMissingNode() ? null : result;
    reply = reply == null ? "" : reply;
    tools = tools == null ? List.of() : List.copyOf(tools);
  }
}
