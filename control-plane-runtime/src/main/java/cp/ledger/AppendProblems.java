package cp.ledger;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why the file system would refuse an append to one JSONL ledger now (found without writing to
 * it), and the operator's log of such problems: each problem is logged once until appends work
 * again.
 *
 * <p>Thread-safety: safe for any number of threads, without a lock. The probe touches only file
 * metadata; the last reported problem is a volatile field, so two threads meeting a new problem at
 * the same moment may both log it (harmless).
 */
final class AppendProblems {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

  /**
   * Below this many free bytes a disk counts as full: an EXCHANGE (a prompt and a response, tens of
   * kB, rarely more) must fit, and a disk this close to full fails the next write anyway.
   */
  static final long FREE_BYTES_TO_RESUME = 1L << 20;

  private final Path path;
  private final FileWriteHook writes;
  /** The file system the ledger is on, looked up once (for its free space). */
  private volatile FileStore store;
  /** The problem last logged, so each problem of this ledger is logged once until it is fixed. */
  private volatile String reported;

  AppendProblems(Path path, FileWriteHook writes) {
    this.path = path;
    this.writes = writes;
  }

  /**
   * Whether the file system would refuse an append now, found without writing to the ledger and
   * without opening it: {@code access(W_OK)} reports an immutable or read-only file, a read-only
   * mount and a missing permission, where opening and closing a second descriptor of the file
   * would release this process's lock on it (POSIX record locks belong to the process and file).
   */
  Optional<LedgerProblem> writeRefusal() {
    try {
      writes.beforeWrite(path);
      if (!Files.exists(path)) {
        return Optional.of(new LedgerProblem(LedgerProblem.Kind.DENIED, path, "the file is gone: it was deleted or"
            + " moved while this process had it open, so appends would be lost with it"));
      }
      if (!Files.isWritable(path)) {
        // The words the refused write itself reports (EPERM), so the problem is logged once, not twice.
        return Optional.of(new LedgerProblem(LedgerProblem.Kind.DENIED, path, "Operation not permitted"));
      }
      FileStore fs = store;
      if (fs == null) {
        fs = Files.getFileStore(path);
        store = fs;
      }
      long free = fs.getUsableSpace();
      if (free < FREE_BYTES_TO_RESUME) {
        return LedgerProblem.ofIo(path, new IOException(LedgerProblem.DISK_FULL + " (" + free + " bytes free)"));
      }
      return Optional.empty();
    } catch (IOException e) {
      // An error that is neither a full disk nor a refusal is left to the write itself.
      return LedgerProblem.ofIo(path, e);
    }
  }

  /** Logs a problem once (one line for the operator), until appends work again. */
  void report(LedgerProblem p) {
    String m = p.message();
    if (!m.equals(reported)) {
      reported = m;
      LOG.error("{}", m);
    }
  }

  /** Appends work (again): logs that once when a problem was reported. */
  void cleared() {
    if (reported != null) {
      reported = null;
      LOG.warn("{} takes appends again", LedgerProblem.label(path));
    }
  }
}
