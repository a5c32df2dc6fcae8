package cp.activities;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.ledger.Ledgers;
import java.util.Objects;

/**
 * The one way the session and HO2 activities write their ledgers: every entry under an
 * idempotency key derived from the running activity's identity, so a retried attempt finds its
 * own entry instead of writing a second one, and told whether this attempt is the one that wrote
 * it (what is counted or traced exactly once). Thread-safe as the ledgers are; holds no state of
 * its own beyond its collaborators.
 */
final class KeyedWrites {
  /** What a write produced: the entry's id, and whether this call wrote it (false: an earlier attempt did, or not asked). */
  record Written(String entryId, boolean firstTime) {}

  private final Ledgers ledgers;
  private final ActivityContextSource context;

  KeyedWrites(Ledgers ledgers, ActivityContextSource context) {
    this.ledgers = Objects.requireNonNull(ledgers, "ledgers");
    this.context = Objects.requireNonNull(context, "context");
  }

  Ledgers ledgers() {
    return ledgers;
  }

  /** The running activity (Temporal's, or the one an outside caller injected). */
  ActivityIdentity identity() {
    return context.identity();
  }

  /**
   * Writes {@code entry} to {@code stream} under {@code key}, once.
   *
   * @param askFirst whether to learn if this call is the first to write it (one lookup more)
   */
  Written write(LedgerStream stream, LedgerEntry.Builder entry, String key, boolean askFirst) {
    boolean first = askFirst && stream.idForKey(key).isEmpty();
    return new Written(stream.write(entry.idempotencyKey(key).build()), first);
  }
}
