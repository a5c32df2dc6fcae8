package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One case's line in a report: the case, its run, every expectation's result and the reply's
 * unified diff against the recorded reply (or a baseline run's); the diff is empty when they match.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CaseReport(EvalCase evalCase, CaseRun run, List<ExpectationResult> results, String diff) {
  public CaseReport {
    Objects.requireNonNull(evalCase, "evalCase");
    results = results == null ? List.of() : List.copyOf(results);
    diff = diff == null ? "" : diff;
  }

  /** Whether the run finished without an error and every expectation held. */
  @JsonProperty(value = "passed", access = JsonProperty.Access.READ_ONLY)
  public boolean passed() {
    return run != null && run.error() == null && results.stream().allMatch(ExpectationResult::passed);
  }

  /** The expectations that did not hold. */
  public List<ExpectationResult> failures() {
    return results.stream().filter(r -> !r.passed()).toList();
  }
}
