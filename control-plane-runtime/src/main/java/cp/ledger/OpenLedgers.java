package cp.ledger;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSONL ledgers open in this JVM, one instance per file: opening a file that is open already
 * shares its instance (and its lock, index and group commit), counted, and the file closes when
 * the last holder closes it. {@link HeadCheckpoint} reads the heads of the open ones from here.
 *
 * <p>Thread-safety: safe for any number of threads; one monitor guards the map and every
 * ledger's reference count. A ledger is loaded under that monitor, so two threads opening the same
 * file get one instance.
 */
final class OpenLedgers {
  private static final Map<Path, Ledger> OPEN = new HashMap<>();

  private OpenLedgers() {}

  /** The open instance for {@code key} (an absolute, normal path) with one more holder, or a new one from {@code load}. */
  static Ledger acquire(Path key, Function<Path, Ledger> load) {
    synchronized (OPEN) {
      Ledger existing = OPEN.get(key);
      if (existing != null) {
        existing.refs++;
        return existing;
      }
      Ledger ledger = load.apply(key);
      ledger.refs = 1;
      OPEN.put(key, ledger);
      return ledger;
    }
  }

  /**
   * The instance open in this JVM for {@code key} with one more holder, or null when none is: a reader
   * that must not open the file for writing shares a writer's instance rather than lock the file beside it.
   */
  static Ledger acquireIfOpen(Path key) {
    synchronized (OPEN) {
      Ledger existing = OPEN.get(key);
      if (existing != null) {
        existing.refs++;
      }
      return existing;
    }
  }

  /** Drops one holder of {@code ledger}; true when it was the last (the caller closes the file). */
  static boolean release(Ledger ledger) {
    synchronized (OPEN) {
      if (--ledger.refs > 0) {
        return false;
      }
      OPEN.remove(ledger.path());
      return true;
    }
  }

  /** The ledger at {@code path} if it is open in this JVM (no holder added), else null. */
  static Ledger peek(Path path) {
    synchronized (OPEN) {
      return OPEN.get(path.toAbsolutePath().normalize());
    }
  }

  /** The last intact head of the ledger at {@code path} if it is open in this JVM, else null. */
  static LedgerHead publishedHead(Path path) {
    Ledger l;
    synchronized (OPEN) {
      l = OPEN.get(path.toAbsolutePath().normalize());
    }
    return l == null ? null : l.publishedHead();
  }
}
