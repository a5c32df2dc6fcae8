package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The limits the gateway enforces on every call made under a prompt contract.
 *
 * @param maxTokens output token cap of one call (at least 1)
 * @param temperature sampling temperature, 0 to 2
 * @param provider optional provider pin (offline, anthropic, openai); null means the plane's default
 * @param model optional model pin; null means the provider's configured model
 * @param structuredOutput true when the model must answer with JSON the output schema validates,
 *     false when it answers in plain text
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContractBoundary(
    int maxTokens, double temperature, String provider, String model, boolean structuredOutput) {

  public ContractBoundary {
    if (maxTokens < 1) {
      throw new IllegalArgumentException("boundary.max_tokens must be >= 1, was " + maxTokens);
    }
    if (temperature < 0 || temperature > 2) {
      throw new IllegalArgumentException("boundary.temperature must be between 0 and 2, was " + temperature);
    }
  }
}
