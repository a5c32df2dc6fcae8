package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** An LLM judge's verdict on one run of a case, with the reason it gave and what the judging cost. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record JudgeVerdict(boolean pass, String reason, Double costUsd) {
  public JudgeVerdict {
    reason = reason == null ? "" : reason;
  }
}
