package cp.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When appended bytes of a JSONL ledger reach the disk ({@link Durability}): {@code FSYNC_EACH}
 * waits for a group commit (writers that append while one fsync runs share the next one),
 * {@code BATCHED} leaves it to one background flusher thread shared by every ledger of the JVM,
 * {@code NONE} to the operating system.
 *
 * <p>Thread-safety: safe for any number of threads. {@link #written} is called under the owning
 * {@link Ledger}'s lock; {@link #awaitDurable} runs outside it (that is what lets writers share
 * one fsync) and serializes on its own monitor; the flusher thread reads only volatile state.
 */
final class GroupCommit {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

  private final Path path;
  private final LedgerFile file;
  private final LedgerOptions options;
  private volatile boolean dirty;
  /** The end of the last complete line this process wrote. */
  private volatile long writtenEnd;
  private final Object syncMonitor = new Object();
  /** Every byte before this offset is known to be on disk; guarded by {@link #syncMonitor}. */
  private long durableEnd;
  private ScheduledFuture<?> flushTask;

  GroupCommit(Path path, LedgerFile file, LedgerOptions options) {
    this.path = path;
    this.file = file;
    this.options = options;
  }

  /** Starts the background flush of a {@code BATCHED} ledger. */
  void start() {
    if (options.durability() == Durability.BATCHED) {
      long ms = options.batchInterval().toMillis();
      flushTask = flusher().scheduleAtFixedRate(this::flushIfDirty, ms, ms, TimeUnit.MILLISECONDS);
    }
  }

  /** Forgets what is known to be on disk (the file is read again from the start). */
  void reset() {
    synchronized (syncMonitor) {
      durableEnd = 0;
    }
  }

  /** An append wrote every byte before {@code end}. */
  void written(long end) {
    writtenEnd = end;
  }

  /** An append finished: a {@code BATCHED} ledger has something for the flusher. */
  void appended() {
    if (options.durability() == Durability.BATCHED) {
      dirty = true;
    }
  }

  /** After an append, outside the ledger's lock: waits for the disk when the policy says so. */
  void afterAppend() {
    if (options.durability() == Durability.FSYNC_EACH) {
      awaitDurable(writtenEnd);
    }
  }

  /**
   * Group commit: returns once every byte up to {@code end} is on disk. The flush runs outside
   * the append lock, so writers that append while one flush is running share the next one
   * instead of each waiting for its own. If the flush fails, the entry stays written but
   * {@code write} throws; a retried write finds it by its idempotency key and flushes again.
   */
  private void awaitDurable(long end) {
    synchronized (syncMonitor) {
      if (durableEnd >= end) {
        return;
      }
      long target = writtenEnd;
      try {
        file.force(false);
      } catch (IOException e) {
        throw new LedgerException("cannot flush ledger " + path + ": " + e.getMessage(), e);
      }
      durableEnd = Math.max(durableEnd, target);
    }
  }

  private void flushIfDirty() {
    if (!dirty) {
      return;
    }
    dirty = false;
    try {
      file.force(false);
    } catch (IOException e) {
      dirty = true;
      LOG.warn("ledger {}: background flush failed: {}", path, e.getMessage());
    }
  }

  /** Forces written entries to disk now, whatever the policy. */
  void flush() {
    try {
      file.force(false);
      dirty = false;
    } catch (IOException e) {
      throw new LedgerException("cannot flush ledger " + path + ": " + e.getMessage(), e);
    }
  }

  /** Stops the background flush (the ledger is closing). */
  void stop() {
    if (flushTask != null) {
      flushTask.cancel(false);
    }
  }

  private static ScheduledExecutorService flusher() {
    return Flusher.THREAD;
  }

  /** The process's one flushing thread, started when a batched ledger first needs it (holder idiom). */
  private static final class Flusher {
    static final ScheduledExecutorService THREAD = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ledger-flusher");
      t.setDaemon(true);
      return t;
    });
  }
}
