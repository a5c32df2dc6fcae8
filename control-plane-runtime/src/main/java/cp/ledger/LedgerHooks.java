package cp.ledger;

import cp.faults.FaultHook;
import java.util.Objects;

/**
 * The collaborators a ledger store is given instead of reaching for process-wide state: where it
 * reports its appends ({@link AppendObserver}), the fault points a crash test may stop it at
 * ({@link FaultHook}: {@code ledger-written:<EVENT>} once an entry is durable but not yet
 * acknowledged, {@code ledger-torn:<EVENT>} with half a line on disk) and the write check a test
 * may make fail ({@link FileWriteHook}). {@link #NONE} is all no-ops: what a command that only
 * reads, or a test, gets unless it says otherwise.
 *
 * @param observer told about every append
 * @param faults the crash-test hook ({@link FaultHook#NONE} in the product unless {@code CP_FAULT_PAUSE} is honoured)
 * @param writes consulted before every file write (JSONL only)
 *
 * <p>Thread-safety: immutable; the collaborators it holds are called from any appending thread and
 * must be thread-safe themselves.
 */
public record LedgerHooks(AppendObserver observer, FaultHook faults, FileWriteHook writes) {
  public static final LedgerHooks NONE = new LedgerHooks(AppendObserver.NONE, FaultHook.NONE, FileWriteHook.NONE);

  /** The fault point reached once an entry of {@code eventType} is durable but its append not yet acknowledged. */
  public static final String LEDGER_WRITTEN = "ledger-written";
  /** The fault point where half of an entry's line of {@code eventType} is on disk (a torn write). */
  public static final String LEDGER_TORN = "ledger-torn";

  public LedgerHooks {
    Objects.requireNonNull(observer, "observer");
    Objects.requireNonNull(faults, "faults");
    Objects.requireNonNull(writes, "writes");
  }

  public LedgerHooks withObserver(AppendObserver o) {
    return new LedgerHooks(o, faults, writes);
  }

  public LedgerHooks withFaults(FaultHook f) {
    return new LedgerHooks(observer, f, writes);
  }

  public LedgerHooks withWrites(FileWriteHook w) {
    return new LedgerHooks(observer, faults, w);
  }

  /** The name of a per-event fault point, e.g. {@code ledger-written:TOOL_CALL}. */
  static String point(String point, String eventType) {
    return point + ":" + (eventType == null ? "" : eventType.toUpperCase(java.util.Locale.ROOT));
  }
}
