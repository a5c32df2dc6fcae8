package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * A regression suite frozen from the ledger: one {@link EvalCase} per recorded turn.
 *
 * <p>{@code suiteVersion} lets a later reader tell an old file from a new one; this code writes
 * {@link #CURRENT_VERSION}. {@code frozenAt} is the ISO-8601 instant the suite was frozen.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EvalSuite(int suiteVersion, String frozenAt, List<EvalCase> cases) {
  /** The version of the suite format this code reads and writes. */
  public static final int CURRENT_VERSION = 1;

  public EvalSuite {
    cases = cases == null ? List.of() : List.copyOf(cases);
  }

  /** A suite of the current version. */
  public static EvalSuite of(String frozenAt, List<EvalCase> cases) {
    return new EvalSuite(CURRENT_VERSION, frozenAt, cases);
  }
}
