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
 * {@code frozenFromUnverifiedLedger} is absent unless {@code cpctl eval freeze --from-unverified-ledger}
 * froze cases whose cited entries the ledger's chain did not prove: then it holds why, one problem each.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EvalSuite(int suiteVersion, String frozenAt,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    List<String> frozenFromUnverifiedLedger,
    List<EvalCase> cases) {
  /** The version of the suite format this code reads and writes. */
  public static final int CURRENT_VERSION = 1;

  public EvalSuite {
    cases = cases == null ? List.of() : List.copyOf(cases);
    frozenFromUnverifiedLedger = frozenFromUnverifiedLedger == null ? List.of() : List.copyOf(frozenFromUnverifiedLedger);
  }

  /** A suite frozen from a ledger that verified. */
  public EvalSuite(int suiteVersion, String frozenAt, List<EvalCase> cases) {
    this(suiteVersion, frozenAt, List.of(), cases);
  }

  /** This suite, recording that it was frozen although the ledger did not prove what it cites ({@code problems}). */
  public EvalSuite frozenFromUnverified(List<String> problems) {
    return new EvalSuite(suiteVersion, frozenAt, problems, cases);
  }

  /** A suite of the current version. */
  public static EvalSuite of(String frozenAt, List<EvalCase> cases) {
    return new EvalSuite(CURRENT_VERSION, frozenAt, cases);
  }
}
