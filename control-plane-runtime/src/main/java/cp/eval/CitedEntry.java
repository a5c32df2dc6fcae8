package cp.eval;

import cp.ledger.LedgerEntry;
import cp.ledger.StreamId;
import java.util.Objects;

/** A ledger entry and the stream it was read from: what a case cites, before it is reduced to a {@link LedgerCite}. */
public record CitedEntry(StreamId stream, LedgerEntry entry) {
  public CitedEntry {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(entry, "entry");
  }

  /** The cite a suite stores: ledger tier, stream label, entry id, hash and event type. */
  public LedgerCite cite() {
    return new LedgerCite(stream.tier().name(), stream.label(), entry.entryId(), entry.hash(), entry.eventType());
  }
}
