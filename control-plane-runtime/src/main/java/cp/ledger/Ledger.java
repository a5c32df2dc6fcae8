package cp.ledger;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only, hash-chained JSONL ledger file: every line one {@link LedgerEntry} whose hash
 * covers its canonical form and {@code prev_hash}; a {@code .head} sidecar records the acknowledged
 * length; writes are idempotent by {@code idempotency_key}; with a {@link ChainKey} the chain is
 * keyed ({@link KeyedChain}); boundary entries carry the other ledgers' heads ({@link HeadCheckpoint}).
 *
 * <p>A torn final line (a crash mid-write) is recovered under the file lock when the file is opened
 * or caught up: completed if it is an intact entry lacking only its newline, otherwise cut, kept in a
 * {@code .torn-*} file, and what it proves recorded in its place ({@link TornTail}). A cut line the
 * head counts, a bad head, or a chain broken anywhere else is damage: appends are refused with
 * {@link LedgerCorruptException} until {@link #repair()}.
 *
 * <p>This class is the coordinator: it holds the locks and leaves each job to a part of its own:
 * {@link JsonlAppender} (appends), {@link JsonlReads} (readers), {@link LedgerFile} (positional
 * I/O, fsync, the file lock), {@link LedgerLoader} (scan, torn tails, index, catch-up),
 * {@link HeadSidecar} (the {@code .head}), {@link GroupCommit} (durability), {@link LedgerRepair}
 * (verify and quarantine), {@link AppendProblems} (the write probe) and {@link OpenLedgers} (one
 * instance per file per JVM). Its collaborators come in with the options ({@link LedgerHooks}).
 *
 * <p>Thread-safety: safe for any number of threads and processes. Every operation runs under
 * {@link #lock} and the exclusive file lock, after catching up with other processes' appends; an
 * fsync of {@code FSYNC_EACH} runs after them ({@link GroupCommit}); a thread's interrupt flag is
 * set aside while it does I/O and restored.
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
  private JsonlReads reads;
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
    // Opening reads and locks the file through an interruptible FileChannel, as an append does.
    return Uninterrupted.call(() -> openShared(path, options, clock));
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
    reads = new JsonlReads(file, loader);
    lock.lock();
    try (FileLock held = file.lock()) {
      assert held.isValid();
      rescan();
      recordTorn();
    } catch (IOException e) {
      throw new LedgerException("cannot read ledger " + path + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
    commit.start();
  }

  /** Appends what torn tails cut on open or catch-up proved ({@link TornTail}). Caller holds both locks. */
  private void recordTorn() throws IOException {
    appender.appendRecovered(loader.takeRecovered());
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
    return Uninterrupted.call(() -> {
      long start = System.nanoTime();
      LedgerEntry withHeads = HeadCheckpoint.augment(path, entry);
      Appended done = locked("append to", () -> appendLocked(withHeads));
      commit.afterAppend();
      problems.cleared();
      if (done.written()) {
        lastAppended = done;
      }
      options.hooks().observer().appended(tierLabel, STORE, System.nanoTime() - start);
      return done;
    });
  }

  /** Work done under both locks after catching up with other processes. */
  private interface LockedWork<T> {
    T run() throws IOException;
  }

  private <T> T locked(String action, LockedWork<T> work) {
    return Uninterrupted.call(() -> {
      lock.lock();
      try (FileLock held = file.lock()) {
        assert held.isValid();
        loader.catchUp();
        recordTorn();
        return work.run();
      } catch (IOException e) {
        throw new LedgerException("cannot " + action + " ledger " + path + ": " + e.getMessage(), e);
      } finally {
        lock.unlock();
      }
    });
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

  // ---------------------------------------------------------------- read ({@link JsonlReads})

  /** Entries matching the query, in file order. */
  @Override
  public List<LedgerEntry> query(LedgerQuery q) {
    return locked("read", () -> reads.query(q));
  }

  /** Newest first, until {@code visitor} returns false (attention reads a session's last turns so). */
  @Override
  public void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
    locked("read", () -> {
      reads.visitNewestFirst(q, visitor);
      return null;
    });
  }

  @Override
  public Optional<LedgerEntry> byId(String entryId) {
    return locked("read", () -> reads.byId(entryId));
  }

  /** The chain hash of an entry: from memory for the one appended last (what a span asks), else read. */
  @Override
  public Optional<String> hashOf(String entryId) {
    Appended last = lastAppended;
    if (last != null && last.entryId().equals(entryId)) {
      return Optional.of(last.hash());
    }
    return byId(entryId).map(LedgerEntry::hash);
  }

  @Override
  public Optional<String> idForKey(String idempotencyKey) {
    return locked("read", () -> reads.idForKey(idempotencyKey));
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
    return Uninterrupted.call(() -> {
      lock.lock();
      try (FileLock held = file.lock()) {
        assert held.isValid();
        return verifyLocked();
      } catch (IOException e) {
        throw new LedgerException("cannot verify ledger " + path + ": " + e.getMessage(), e);
      } finally {
        lock.unlock();
      }
    });
  }

  /**
   * Verifies the ledger file at {@code path} without opening it for writing: what {@code cpctl
   * ledger verify} runs ({@link LedgerRepair#verifyFile}).
   *
   * @param headRequired false for a file that has no {@code .head} by design (an export)
   */
  public static VerifyResult verifyFile(Path path, LedgerOptions options, boolean headRequired) {
    return LedgerRepair.verifyFile(path, options, headRequired);
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
