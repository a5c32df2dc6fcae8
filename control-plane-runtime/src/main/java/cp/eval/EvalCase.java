package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One case of a suite: the input a turn saw, what it recorded, the ledger entries both came from
 * and what a run of it must satisfy.
 *
 * <p>{@code id} is {@code SESSION#TURN} for a frozen case. {@code input} and {@code recorded} are
 * proven against {@code cites} by {@code cpctl eval verify}; {@code expect} is the user's to edit.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EvalCase(String id, CaseInput input, RecordedTurn recorded, List<LedgerCite> cites,
                       Expectations expect) {
  public EvalCase {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(input, "input");
    cites = cites == null ? List.of() : List.copyOf(cites);
    expect = expect == null ? Expectations.NONE : expect;
  }

  /** The id of the case frozen from turn {@code turn} of a session. */
  public static String idOf(String sessionId, int turn) {
    return sessionId + "#" + turn;
  }

  /** This case with other expectations. */
  public EvalCase withExpect(Expectations other) {
    return new EvalCase(id, input, recorded, cites, other);
  }

  /** This case with another recorded turn. */
  public EvalCase withRecorded(RecordedTurn other) {
    return new EvalCase(id, input, other, cites, expect);
  }
}
