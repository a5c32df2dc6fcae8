package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * How HO2's quality gate judges a synthesized reply for one agent.
 *
 * @param maxRetries synthesize retries after a rejection, before the turn escalates
 * @param maxResponseChars the longest {@code response_text} the gate accepts
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record QualityGateConfig(int maxRetries, int maxResponseChars) {

  public QualityGateConfig {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("quality_gate.max_retries must be >= 0, was " + maxRetries);
    }
    if (maxResponseChars < 1) {
      throw new IllegalArgumentException("quality_gate.max_response_chars must be >= 1, was " + maxResponseChars);
    }
  }
}
