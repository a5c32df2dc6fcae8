package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * The outcome of one expectation on one run: its name ({@code contains}, {@code tools},
 * {@code judge}, ... as the suite key spells it), whether it held, and a detail saying what was
 * expected and what the run did.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ExpectationResult(String name, boolean passed, String detail) {
  public ExpectationResult {
    Objects.requireNonNull(name, "name");
    detail = detail == null ? "" : detail;
  }
}
