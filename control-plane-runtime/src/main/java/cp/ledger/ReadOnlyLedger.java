package cp.ledger;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A JSONL ledger opened by a command that only reads ({@code ledger query}, {@code show},
 * {@code sessions}, {@code spend}, {@code eval freeze|verify}): the file is read once, on a read-only
 * channel under a shared file lock (a writer appending waits, and is waited for), and nothing is
 * created, recovered, rewritten, truncated or locked for writing: no {@code .head} is written, no
 * torn tail moved to a {@code .torn-*} file, no directory made. An incomplete final line is left where
 * it is and not read ({@link #skippedBytes()}: reads stop at the last complete line); a missing file
 * reads as empty.
 *
 * <p>The one read is also {@code ledger verify}'s walk ({@link LedgerLoader#verifyFromStart}), so
 * {@link #verify()} answers from it without reading the file again. What it shows is the ledger as it
 * was when opened: lines appended later are not read.
 *
 * <p>Thread-safety: safe for any number of threads; the index is built before the instance is
 * published and only read afterwards, and positional reads of the channel may run concurrently. The
 * parsed-entry cache of {@link JsonlReads} is guarded by this instance's monitor.
 */
final class ReadOnlyLedger implements LedgerStream {
  private final Path path;
  private final LedgerFile file;
  private final JsonlReads reads;
  private final LedgerLoader loader;
  private final VerifyResult verified;
  private final long skippedBytes;

  private ReadOnlyLedger(Path path, LedgerFile file, LedgerLoader loader, VerifyResult verified, long skippedBytes) {
    this.path = path;
    this.file = file;
    this.loader = loader;
    this.reads = file == null ? null : new JsonlReads(file, loader);
    this.verified = verified;
    this.skippedBytes = skippedBytes;
  }

  /** Reads the ledger at {@code path} once; a file that does not exist is an empty ledger (and is not created). */
  static ReadOnlyLedger open(Path path, LedgerOptions options) {
    if (!Files.isRegularFile(path)) {
      return new ReadOnlyLedger(path, null, null, VerifyResult.ok(0), 0);
    }
    return Uninterrupted.call(() -> read(path, options));
  }

  private static ReadOnlyLedger read(Path path, LedgerOptions options) {
    LedgerFile f = null;
    try {
      f = LedgerFile.openReadOnly(path);
      try (FileLock held = f.lockShared()) {
        assert held.isValid();
        LedgerLoader loader = new LedgerLoader(f, path, options, Clock.systemUTC(), null);
        long size = f.size();
        VerifyResult v = loader.verifyFromStart();
        return new ReadOnlyLedger(path, f, loader, v, size - loader.knownEnd());
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly(f, e);
      if (e instanceof LedgerException le) {
        throw le;
      }
      throw new LedgerException("cannot read ledger " + path + ": " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(LedgerFile f, Exception cause) {
    if (f != null) {
      try {
        f.close();
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
    }
  }

  /** The bytes after the last complete line (an incomplete final line), left unread and in place; 0: none. */
  long skippedBytes() {
    return skippedBytes;
  }

  /** Complete lines read (including any bad ones). */
  long lines() {
    return loader == null ? 0 : loader.lines();
  }

  @Override
  public String location() {
    return path.toString();
  }

  @Override
  public Appended append(LedgerEntry entry) {
    throw readOnly("append to");
  }

  private LedgerException readOnly(String action) {
    return new LedgerException("cannot " + action + " ledger " + path + ": it was opened read-only, by a command"
        + " that only reads");
  }

  @Override
  public synchronized List<LedgerEntry> query(LedgerQuery q) {
    return reads == null ? List.of() : read(() -> reads.query(q));
  }

  @Override
  public synchronized void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
    if (reads != null) {
      read(() -> {
        reads.visitNewestFirst(q, visitor);
        return null;
      });
    }
  }

  @Override
  public synchronized Optional<LedgerEntry> byId(String entryId) {
    return reads == null ? Optional.empty() : read(() -> reads.byId(entryId));
  }

  @Override
  public Optional<String> idForKey(String idempotencyKey) {
    return reads == null ? Optional.empty() : reads.idForKey(idempotencyKey);
  }

  /** From the index the one read built; {@code ledger verify}'s line numbers. */
  @Override
  public Optional<Long> lineOf(String entryId) {
    return loader == null ? Optional.empty() : Optional.ofNullable(loader.index().lineOf(StoredText.clean(entryId)));
  }

  @Override
  public long size() {
    return lines();
  }

  /** {@code ledger verify}'s result for the file as it was read (a torn tail is reported, as verify does). */
  @Override
  public VerifyResult verify() {
    return verified;
  }

  @Override
  public Optional<VerifyResult> brokenChain() {
    return verified.ok() ? Optional.empty() : Optional.of(verified);
  }

  @Override
  public Optional<LedgerProblem> appendProblem() {
    throw readOnly("check appends to");
  }

  @Override
  public Optional<String> repair() {
    throw readOnly("repair");
  }

  @Override
  public void flush() {
    // Nothing was written.
  }

  @Override
  public void close() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException e) {
        throw new LedgerException("cannot close ledger " + path + ": " + e.getMessage(), e);
      }
    }
  }

  /** A read that may fail with an I/O error. */
  private interface Read<T> {
    T run() throws IOException;
  }

  private <T> T read(Read<T> r) {
    return Uninterrupted.call(() -> {
      try {
        return r.run();
      } catch (IOException e) {
        throw new LedgerException("cannot read ledger " + path + ": " + e.getMessage(), e);
      }
    });
  }
}
