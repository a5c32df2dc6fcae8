package cp.ledger;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code cpctl ledger verify}: every stream's own chain, the heads the streams record of each
 * other, and the heads an operator pins ({@link ExpectedHead}), in one report. Reads only: a torn
 * tail, a garbage {@code .head}, a broken chain are reported, never moved or repaired (that is
 * {@code cpctl ledger repair}).
 *
 * <p>Thread-safety: stateless.
 */
public final class PlaneVerification {
  /** What one line of the report says. */
  public enum Status {
    /** A stream verified. */
    OK,
    /** Damage or tampering. */
    FAIL,
    /** A keyed chain that needs {@code CP_LEDGER_HMAC_KEY} (or another key) to be checked: not tampering by itself. */
    KEY,
    /** Nothing to report about a stream (an empty store). */
    NOTE
  }

  /** One line of the report, as {@code cpctl ledger verify} prints it. */
  public record Line(Status status, String text) {}

  /** The report: every line; {@link #ok()} when none is FAIL or KEY. */
  public record Report(List<Line> lines) {
    public Report {
      lines = List.copyOf(lines);
    }

    public boolean ok() {
      return lines.stream().noneMatch(l -> l.status() == Status.FAIL || l.status() == Status.KEY);
    }

    public long failures() {
      return lines.stream().filter(l -> l.status() == Status.FAIL || l.status() == Status.KEY).count();
    }
  }

  private PlaneVerification() {}

  /** Verifies every stream of {@code store} and the heads recorded and pinned ({@code expected}). */
  public static Report run(LedgerStore store, List<ExpectedHead> expected) {
    return run(store, expected, "");
  }

  /**
   * {@link #run(LedgerStore, List)}, with {@code okNote} after each OK line's entry count (e.g. the
   * key id the chains were checked with).
   */
  public static Report run(LedgerStore store, List<ExpectedHead> expected, String okNote) {
    List<Line> lines = new ArrayList<>();
    List<StreamId> streams = store.streams();
    if (streams.isEmpty() && expected.isEmpty()) {
      lines.add(new Line(Status.NOTE, "no ledgers in " + store.describe() + " (nothing to verify; "
          + ExpectedHead.OPTION + " STREAM=ENTRIES:HASH proves that ledgers exported earlier are still here)"));
    }
    for (StreamId id : streams) {
      VerifyResult r = store.verify(id);
      String where = store.location(id);
      if (r.ok()) {
        lines.add(new Line(Status.OK, String.format("OK    %-12s %s  (%d entries%s)", id.label(), where, r.entries(),
            okNote)));
      } else {
        Status s = r.keyProblem() ? Status.KEY : Status.FAIL;
        lines.add(new Line(s, String.format("%-5s %-12s %s  line %d: %s", s.name(), id.label(), where,
            r.firstBadLine(), r.reason())));
      }
    }
    for (HeadCheckpoint.Finding f : store.crossCheck(expected)) {
      lines.add(new Line(Status.FAIL, String.format("FAIL  %-12s %s", f.stream() == null ? "?" : f.stream().label(),
          f.message())));
    }
    return new Report(lines);
  }
}
