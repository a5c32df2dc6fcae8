package cp.ledger;

import cp.model.Json;
import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only, hash-chained JSONL ledger file.
 *
 * <p>Every line is one {@link LedgerEntry} whose {@code hash} covers its canonical form
 * including {@code prev_hash}, so editing, deleting or reordering a line breaks the chain at
 * that line; a {@code .head} sidecar records the acknowledged length so a deleted tail is
 * caught too. Writes are idempotent by {@code idempotency_key}: a retried activity that writes
 * the same event again gets the first entry's id back and the file does not grow.
 *
 * <p>Concurrency: one instance per file per JVM ({@link #open} shares it), a lock for threads,
 * and an exclusive file lock around every operation for other processes, which catches this
 * process up on lines they appended before it reads or writes. A torn final line (a crash in
 * the middle of a write) is repaired under that lock when the file is opened or caught up:
 * completed if it is an intact entry that only lacks its newline, otherwise cut off and kept in
 * a {@code .torn-*} file. A cut final line that the head counts was acknowledged, so it is
 * damage, not a torn write: it stays in place and the chain counts as broken. A chain that is
 * broken anywhere else is never extended: writes fail with {@link LedgerCorruptException} until
 * {@link #repair()} quarantines the bad lines.
 *
 * <p>With a {@link ChainKey} in the options the chain is keyed ({@link KeyedChain}); entries of
 * boundary types carry the other ledgers' heads ({@link HeadCheckpoint}).
 *
 * <p>This class is the coordinator: it holds the locks, and leaves each job to a part of its own:
 * {@link JsonlAppender} (the append path), {@link LedgerFile} (the segment file: positional I/O,
 * fsync, the file lock), {@link LedgerLoader} (scan, torn-tail recovery, index, catch-up),
 * {@link HeadSidecar} (the {@code .head} file and the published head), {@link GroupCommit}
 * (durability), {@link LedgerRepair} (verify and quarantine), {@link AppendProblems} (the write
 * probe and its log) and {@link OpenLedgers} (one instance per file per JVM). Its collaborators
 * (metrics, fault points, write checks) come in with the options ({@link LedgerHooks}).
 *
 * <p>Thread-safety: safe for any number of threads and processes. Every operation runs under
 * {@link #lock} and the file lock, after catching up; an fsync of {@code FSYNC_EACH} runs after
 * them ({@link GroupCommit}); a thread's interrupt flag is set aside while it does I/O and restored.
 */
public final class Ledger implements LedgerStream {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

  /** The store label of the append-latency metric: this ledger is a file (issue 14). */
  static final String STORE = "file";

  private final Path path;
  private final String tierLabel;
  private final LedgerOptions options;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private LedgerFile file;
  private HeadSidecar head;
  private LedgerLoader loader;
  private GroupCommit commit;
  private JsonlAppender appender;
  private final AppendProblems problems;
  /** The id and hash of the entry appended last, whichever thread appended it ({@link #hashOf}). */
  private volatile Appended lastAppended;
  /** Holders of this instance; guarded by {@link OpenLedgers}. */
  int refs;
  /** The file's size when its broken chain was last read from the start; -1 before that. */
  private long brokenReadAtSize = -1;

  private Ledger(Path path, LedgerOptions options, Clock clock) {
    this.path = path;
    this.options = options;
    this.clock = clock;
    this.tierLabel = PlaneLayout.tierLabel(path);
    this.problems = new AppendProblems(path, options.hooks().writes());
  }

  /** Opens (creating if needed) the ledger at {@code path}; the same file yields the same instance. */
  public static Ledger open(Path path, LedgerOptions options) {
    return open(path, options, Clock.systemUTC());
  }

  static Ledger open(Path path, LedgerOptions options, Clock clock) {
    // Opening reads and locks the file through an interruptible FileChannel: as for write(), a thread whose
    // interrupt flag is set would close it; the flag is set aside while the ledger opens and restored.
    boolean interrupted = Thread.interrupted();
    try {
      return openShared(path, options, clock);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Ledger openShared(Path path, LedgerOptions options, Clock clock) {
    return OpenLedgers.acquire(path.toAbsolutePath().normalize(), key -> {
      Ledger ledger = new Ledger(key, options, clock);
      ledger.load();
      return ledger;
    });
  }

  public Path path() {
    return path;
  }

  @Override
  public String location() {
    return path.toString();
  }

  public LedgerOptions options() {
    return options;
  }

  // ---------------------------------------------------------------- open

  private void load() {
    try {
      file = LedgerFile.open(path);
      head = HeadSidecar.open(path, options.key());
    } catch (IOException e) {
      throw new LedgerException("cannot open ledger " + path + ": " + e.getMessage(), e);
    }
    loader = new LedgerLoader(file, path, options, clock, head);
    commit = new GroupCommit(path, file, options);
    appender = new JsonlAppender(path, options, clock, file, loader, commit, problems);
    lock.lock();
    try (FileLock held = file.lock()) {
      assert held.isValid();
      rescan();
    } catch (IOException e) {
      throw new LedgerException("cannot read ledger " + path + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
    commit.start();
  }

  /** Rebuilds all in-memory state from the file. Caller holds both locks. */
  private void rescan() throws IOException {
    commit.reset();
    loader.rescan();
  }

  // ---------------------------------------------------------------- write

  /**
   * Appends an entry. An entry whose idempotency key is already in the ledger is not written
   * again; the existing entry's id is returned.
   *
   * @throws LedgerCorruptException when the chain is broken
   */
  @Override
  public Appended append(LedgerEntry entry) {
    // FileChannel is interruptible: I/O on a thread whose interrupt flag is set (an activity thread
    // of a worker stopped with shutdownNow) closes the channel for every thread of the process.
    // The flag is set aside while the entry is written and restored for the caller.
    boolean interrupted = Thread.interrupted();
    long start = System.nanoTime();
    try {
      LedgerEntry withHeads = HeadCheckpoint.augment(path, entry);
      Appended done = locked("append to", () -> appendLocked(withHeads));
      commit.afterAppend();
      problems.cleared();
      if (done.written()) {
        lastAppended = done;
      }
      options.hooks().observer().appended(tierLabel, STORE, System.nanoTime() - start);
      return done;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Work done under both locks after catching up with other processes. */
  private interface LockedWork<T> {
    T run() throws IOException;
  }

  private <T> T locked(String action, LockedWork<T> work) {
    boolean interrupted = Thread.interrupted(); // see write(): interrupted I/O would close the channel
    lock.lock();
    try (FileLock held = file.lock()) {
      assert held.isValid();
      loader.catchUp();
      return work.run();
    } catch (IOException e) {
      throw new LedgerException("cannot " + action + " ledger " + path + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The append under both locks: a chain found broken is read again first, in case it was repaired. */
  private Appended appendLocked(LedgerEntry entry) throws IOException {
    if (loader.broken() != null) {
      rereadIfChanged();
    }
    return appender.append(entry);
  }

  /**
   * Why an append would be refused now, or empty: a broken chain, a file that cannot be opened for
   * writing (immutable, read-only, no permission) or a disk with less than
   * {@link AppendProblems#FREE_BYTES_TO_RESUME} free. Writes nothing, so a caller about to do something that
   * must be recorded (the gateway, before it pays for a call) can refuse first. Catches up with
   * other processes first; a problem is logged once until it is fixed.
   */
  @Override
  public Optional<LedgerProblem> appendProblem() {
    Optional<LedgerProblem> problem = locked("check", () -> {
      if (loader.broken() != null) {
        rereadIfChanged();
      }
      VerifyResult broken = loader.broken();
      return broken != null ? Optional.of(LedgerProblem.corrupt(path, broken)) : Optional.<LedgerProblem>empty();
    });
    if (problem.isEmpty()) {
      // Outside the locks: the probe touches only file metadata, and needs neither lock.
      problem = problems.writeRefusal();
    }
    if (problem.isPresent()) {
      problems.report(problem.get());
    } else {
      problems.cleared();
    }
    return problem;
  }

  /**
   * A chain found broken is read again from the start when the file changed since (another
   * process ran {@code cpctl ledger repair}): the check a freshly started process would make, so
   * a running worker takes appends again after a repair without a restart. Caller holds both locks.
   */
  private void rereadIfChanged() throws IOException {
    long size = file.size();
    if (size != brokenReadAtSize) {
      rescan();
      brokenReadAtSize = loader.broken() != null ? file.size() : -1;
    }
  }

  /** The last intact head of this ledger ({@link OpenLedgers#publishedHead}). */
  LedgerHead publishedHead() {
    return head.published();
  }

  // ---------------------------------------------------------------- read

  /** Entries matching the query, in file order. */
  @Override
  public List<LedgerEntry> query(LedgerQuery q) {
    return locked("read", () -> {
      List<LedgerEntry> out = new ArrayList<>();
      for (int row : loader.index().select(q)) {
        out.add(readRow(loader.index().row(row)));
      }
      return out;
    });
  }

  /**
   * Visits the entries matching the query newest first, until {@code visitor} returns false. A
   * reader that wants the latest few entries of a long history (attention reads a session's last
   * turns on every turn) stops there instead of reading and parsing every line.
   */
  @Override
  public void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
    locked("read", () -> {
      List<Integer> rows = loader.index().select(q);
      for (int k = rows.size() - 1; k >= 0; k--) {
        if (!visitor.test(readRow(loader.index().row(rows.get(k))))) {
          break;
        }
      }
      return null;
    });
  }

  @Override
  public Optional<LedgerEntry> byId(String entryId) {
    return locked("read", () -> {
      Integer row = loader.index().rowOf(entryId);
      return row == null ? Optional.<LedgerEntry>empty() : Optional.of(readRow(loader.index().row(row)));
    });
  }

  /**
   * The chain hash of entry {@code entryId}: from memory when it is the entry appended last (what
   * a span asks right after the write, issue 14; {@link #append} returns it too), else read.
   */
  @Override
  public Optional<String> hashOf(String entryId) {
    Appended last = lastAppended;
    if (last != null && last.entryId().equals(entryId)) {
      return Optional.of(last.hash());
    }
    return byId(entryId).map(LedgerEntry::hash);
  }

  /** The id already written under an idempotency key, if any. */
  @Override
  public Optional<String> idForKey(String idempotencyKey) {
    return locked("read", () -> Optional.ofNullable(loader.index().idForKey(idempotencyKey)));
  }

  private LedgerEntry readRow(LedgerIndex.Row row) throws IOException {
    byte[] bytes = file.readExactly(row.offset(), row.length());
    return LedgerEntry.fromJson(Json.MAPPER.readTree(bytes, 0, row.length() - 1));
  }

  /** Number of lines in the ledger (including any bad ones). */
  @Override
  public long size() {
    return locked("read", () -> loader.lines());
  }

  // ---------------------------------------------------------------- verify / repair

  /**
   * Walks the file on disk from the first line and reports the first bad line, if any. Reads only:
   * it does not catch up first (which would recover another process's torn tail), so a torn tail
   * is reported as it is on disk.
   */
  @Override
  public VerifyResult verify() {
    boolean interrupted = Thread.interrupted(); // see append(): interrupted I/O would close the channel
    lock.lock();
    try (FileLock held = file.lock()) {
      assert held.isValid();
      return verifyLocked();
    } catch (IOException e) {
      throw new LedgerException("cannot verify ledger " + path + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Verifies the ledger file at {@code path} without opening it for writing (a read-only channel
   * under a shared file lock; nothing is created, recovered or moved): what {@code cpctl ledger
   * verify} runs. A ledger open in this JVM is verified through its instance (same file lock).
   *
   * @param headRequired false for a file that has no {@code .head} by design (an export)
   */
  public static VerifyResult verifyFile(Path path, LedgerOptions options, boolean headRequired) {
    Ledger open = OpenLedgers.peek(path);
    if (open != null && headRequired) {
      return open.verify();
    }
    boolean interrupted = Thread.interrupted();
    try (LedgerFile f = LedgerFile.openReadOnly(path); FileLock held = f.lockShared()) {
      assert held.isValid();
      return headRequired ? LedgerRepair.verify(f, path, options, Clock.systemUTC())
          : LedgerRepair.verifyHeadless(f, path, options, Clock.systemUTC());
    } catch (IOException e) {
      throw new LedgerException("cannot verify ledger " + path + ": " + e.getMessage(), e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private VerifyResult verifyLocked() throws IOException {
    return LedgerRepair.verify(file, path, options, clock);
  }

  /** Whether the chain was found broken (writes are refused). */
  @Override
  public Optional<VerifyResult> brokenChain() {
    lock.lock();
    try {
      return Optional.ofNullable(loader.broken());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Explicit repair of a broken chain: moves every line from the first bad one to the end into
   * a {@code .quarantine-*} file (nothing is deleted), truncates the ledger before that line and
   * appends a LEDGER_REPAIRED entry saying what was moved. Returns the quarantine file, or empty
   * when the chain was intact.
   */
  @Override
  public Optional<String> repair() {
    return repairLocked().map(p -> p.isEmpty() ? LedgerRepair.NOTHING_MOVED : p.get().toString());
  }

  /** {@link #repair()}, returning the quarantine file (empty when the chain was intact, or nothing was moved). */
  public Optional<Path> repairFile() {
    return repairLocked().flatMap(p -> p);
  }

  /** Empty when intact; else the quarantine file, empty when only the {@code .head} was rewritten. */
  private Optional<Optional<Path>> repairLocked() {
    Optional<Optional<Path>> quarantined = locked("repair", () -> {
      VerifyResult bad = verifyLocked();
      if (bad.ok() || bad.kind() == VerifyResult.Kind.UNKEYED) {
        // Not keyed yet is not damage: the next append with the key adopts the ledger (KeyedChain).
        return Optional.<Optional<Path>>empty();
      }
      if (bad.keyProblem()) {
        // Without the right key nothing can be told apart from tampering, so nothing is moved.
        throw new LedgerException("cannot repair " + path + ": " + bad.reason() + "; nothing was changed");
      }
      Path quarantine = LedgerRepair.quarantineFrom(file, path, bad, clock, () -> {
        head.reset();
        commit.reset();
        loader.rescan(true);
      }, appender::append);
      return Optional.of(Optional.ofNullable(quarantine));
    });
    if (quarantined.isPresent()) {
      // The LEDGER_REPAIRED entry is flushed the way write() flushes, which also records it as durable.
      commit.afterAppend();
    }
    return quarantined;
  }

  // ---------------------------------------------------------------- durability / close

  /** Forces written entries to disk now, whatever the durability policy. */
  @Override
  public void flush() {
    commit.flush();
  }

  /** Releases this reference; the file closes when the last holder closes it. */
  @Override
  public void close() {
    if (!OpenLedgers.release(this)) {
      return;
    }
    commit.stop();
    lock.lock();
    try {
      if (file.isOpen()) {
        if (options.durability() != Durability.NONE) {
          file.force(false);
        }
        file.close();
      }
      head.close();
    } catch (IOException e) {
      LOG.warn("ledger {}: close failed: {}", path, e.getMessage());
    } finally {
      lock.unlock();
    }
  }
}
