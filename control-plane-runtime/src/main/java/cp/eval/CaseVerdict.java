package cp.eval;

import java.util.List;
import java.util.Objects;

/**
 * What {@code cpctl eval verify} found for one case: {@link Status#OK} when every cited entry is in
 * its ledger with the hash the case cites, its chain verifies, and the case's {@code input} and
 * {@code recorded} are what those entries say; otherwise why not, each problem naming the field
 * or cite.
 */
public record CaseVerdict(String caseId, Status status, List<String> problems) {
  /** A case's standing against the ledger. */
  public enum Status {
    /** Everything it cites is there and says what the case says. */
    OK,
    /** Its input or record differs from its entries, or an entry differs from what it cites. */
    EDITED,
    /** An entry it cites is gone from its ledger. */
    MISSING,
    /** A cited stream is keyed and cannot be checked without {@code CP_LEDGER_HMAC_KEY} (or with this key). */
    KEY
  }

  public CaseVerdict {
    Objects.requireNonNull(caseId, "caseId");
    Objects.requireNonNull(status, "status");
    problems = problems == null ? List.of() : List.copyOf(problems);
  }

  public boolean ok() {
    return status == Status.OK;
  }
}
