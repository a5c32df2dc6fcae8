package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * What one run of a case produced: the session it ran in, reply, result, outcome, whether the
 * result was schema-valid and the gate passed, the tools that ran (and which were replayed from the
 * record, which had no recording), the calls that did not run because their approval was denied or
 * timed out, cost, tokens, latency, an error when the run itself failed, and the judge's verdict
 * when the case asked for one.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CaseRun(String caseId, String sessionId, String reply, JsonNode result, String outcome,
                      boolean schemaValid, boolean gatePassed, List<RecordedToolCall> toolsCalled,
                      List<String> replayedTools, List<String> unrecordedToolCalls, Double costUsd,
                      long inputTokens, long outputTokens, long latencyMs, String error,
                      JudgeVerdict judge, List<String> notApprovedToolCalls) {
  public CaseRun {
    result = result == null || result.isNull() || result.isMissingNode() ? null : result;
    Objects.requireNonNull(caseId, "caseId");
    reply = reply == null ? "" : reply;
    toolsCalled = toolsCalled == null ? List.of() : List.copyOf(toolsCalled);
    replayedTools = replayedTools == null ? List.of() : List.copyOf(replayedTools);
    unrecordedToolCalls = unrecordedToolCalls == null ? List.of() : List.copyOf(unrecordedToolCalls);
    notApprovedToolCalls = notApprovedToolCalls == null ? List.of() : List.copyOf(notApprovedToolCalls);
  }

  /** A run in which every tool call that was asked for ran (or none was asked for). */
  public CaseRun(String caseId, String sessionId, String reply, JsonNode result, String outcome, boolean schemaValid,
      boolean gatePassed, List<RecordedToolCall> toolsCalled, List<String> replayedTools,
      List<String> unrecordedToolCalls, Double costUsd, long inputTokens, long outputTokens, long latencyMs,
      String error, JudgeVerdict judge) {
    this(caseId, sessionId, reply, result, outcome, schemaValid, gatePassed, toolsCalled, replayedTools,
        unrecordedToolCalls, costUsd, inputTokens, outputTokens, latencyMs, error, judge, List.of());
  }

  /** Input plus output tokens. */
  public long totalTokens() {
    return inputTokens + outputTokens;
  }
}
