package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.faults.FaultPoints;
import cp.faults.WriteFaults;
import cp.model.Json;
import cp.observability.Telemetry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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
 */
public final class Ledger implements LedgerStream {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);
  /** Read size for scans; lines longer than this are stitched across reads. */
  private static final int SCAN_CHUNK_BYTES = 1 << 20;
  private static final Map<Path, Ledger> OPEN = new HashMap<>();
  private static ScheduledExecutorService flusher;

  /** The ledger path, id and hash of the entry this thread appended last ({@link #hashOf}). */
  private static final ThreadLocal<String[]> LAST_APPEND = new ThreadLocal<>();
  /** The store label of the append-latency metric: this ledger is a file (issue 14). */
  static final String STORE = "file";

  private final Path path;
  private final String tierLabel;
  private final LedgerOptions options;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private FileChannel channel;
  private FileChannel headChannel;
  private LedgerIndex index;
  private long knownEnd;
  private long lines;
  private String lastHash;
  private VerifyResult broken;
  private LedgerHead headAtOpen;
  /** The keyed-chain state of the lines read so far (see {@link ChainKey}). */
  private KeyedChain keyed = new KeyedChain();
  /** The last head this process knows to be intact, for other ledgers' checkpoints ({@link HeadCheckpoint}). */
  private volatile LedgerHead published;
  private int refs;
  private volatile boolean dirty;
  /** The end of the last complete line this process wrote or read (for the group commit). */
  private volatile long writtenEnd;
  private final Object syncMonitor = new Object();
  /** Every byte before this offset is known to be on disk; guarded by {@link #syncMonitor}. */
  private long durableEnd;
  private ScheduledFuture<?> flushTask;
  /** The file system the ledger is on, looked up once (for its free space). */
  private volatile FileStore store;
  /** The problem last logged, so each problem of this ledger is logged once until it is fixed. */
  private volatile String reported;
  /** The file's size when its broken chain was last read from the start; -1 before that. */
  private long brokenReadAtSize = -1;

  private Ledger(Path path, LedgerOptions options, Clock clock) {
    this.path = path;
    this.options = options;
    this.clock = clock;
    this.tierLabel = tierLabel(path);
  }

  /**
   * The tier a ledger file belongs to by where it lives under the plane root ({@link PlaneLayout}:
   * {@code <TIER>/ledger/...}), in lower case as the append-latency metric labels it; {@code other}
   * for a file elsewhere.
   */
  static String tierLabel(Path path) {
    for (Path p = path.getParent(); p != null && p.getParent() != null; p = p.getParent()) {
      if (p.getFileName().toString().equals("ledger")) {
        String tier = p.getParent().getFileName().toString();
        for (Tier t : Tier.values()) {
          if (t.name().equals(tier)) {
            return t.name().toLowerCase(java.util.Locale.ROOT);
          }
        }
      }
    }
    return "other";
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
    Path key = path.toAbsolutePath().normalize();
    synchronized (OPEN) {
      Ledger existing = OPEN.get(key);
      if (existing != null) {
        existing.refs++;
        return existing;
      }
      Ledger ledger = new Ledger(key, options, clock);
      ledger.load();
      ledger.refs = 1;
      OPEN.put(key, ledger);
      return ledger;
    }
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

  // ---------------------------------------------------------------- open / scan / repair

  private void load() {
    try {
      Files.createDirectories(path.getParent());
      channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      headChannel = LedgerHead.open(path);
    } catch (IOException e) {
      throw new LedgerException("cannot open ledger " + path + ": " + e.getMessage(), e);
    }
    lock.lock();
    try (FileLock held = channel.lock()) {
      assert held.isValid();
      rescan();
    } catch (IOException e) {
      throw new LedgerException("cannot read ledger " + path + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
    if (options.durability() == Durability.BATCHED) {
      long ms = options.batchInterval().toMillis();
      flushTask = flusher().scheduleAtFixedRate(this::flushIfDirty, ms, ms, TimeUnit.MILLISECONDS);
    }
  }

  /** Rebuilds all in-memory state from the file. Caller holds both locks. */
  private void rescan() throws IOException {
    index = new LedgerIndex();
    synchronized (syncMonitor) {
      durableEnd = 0;
    }
    knownEnd = 0;
    lines = 0;
    lastHash = ChainCodec.GENESIS;
    broken = null;
    keyed = new KeyedChain();
    headAtOpen = LedgerHead.read(path);
    scanFrom(0);
    checkHeadLength();
    checkKey();
    if (broken == null && (headAtOpen == null || headAtOpen.entries() != lines)) {
      writeHead();
    }
    publish();
  }

  /** Reads complete lines from {@code start}, indexing and checking each; repairs a torn tail. */
  private void scanFrom(long start) throws IOException {
    byte[] tail = scanLines(start);
    if (tail.length > 0) {
      repairTornTail(knownEnd, tail);
    }
  }

  /**
   * Feeds every complete line from {@code start} to {@link #consume}, sets {@link #knownEnd}
   * to the end of the last complete line and returns the bytes after it (a torn tail, or none).
   */
  private byte[] scanLines(long start) throws IOException {
    long size = channel.size();
    long pos = start;
    byte[] carry = new byte[0];
    long carryStart = start;
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(SCAN_CHUNK_BYTES, Math.max(1, size - start)));
    while (pos < size) {
      buf.clear();
      int n = channel.read(buf, pos);
      if (n <= 0) {
        break;
      }
      byte[] data = new byte[carry.length + n];
      System.arraycopy(carry, 0, data, 0, carry.length);
      System.arraycopy(buf.array(), 0, data, carry.length, n);
      int lineStart = 0;
      for (int i = 0; i < data.length; i++) {
        if (data[i] == '\n') {
          consume(carryStart + lineStart, data, lineStart, i - lineStart);
          lineStart = i + 1;
        }
      }
      carryStart += lineStart;
      carry = Arrays.copyOfRange(data, lineStart, data.length);
      pos += n;
    }
    knownEnd = carryStart;
    return carry;
  }

  private void consume(long offset, byte[] data, int off, int len) {
    lines++;
    ChainCodec.Checked c = ChainCodec.check(data, off, len, lastHash, options.key());
    if (broken == null) {
      broken = keyed.accept(c, lines);
    }
    if (broken == null && headAtOpen != null && headAtOpen.entries() == lines
        && !headAtOpen.lastHash().equals(c.hash())) {
      broken = VerifyResult.bad(lines - 1, lines, "does not match the head record (the ledger was rewritten from here)");
    }
    if (c.hash() != null) {
      lastHash = c.hash();
    }
    LedgerEntry e = c.entry();
    if (e != null) {
      index.add(new LedgerIndex.Row(offset, len + 1, e.entryId(), e.eventType(), e.sessionId(), e.workOrderId()),
          e.idempotencyKey());
    }
  }

  private void repairTornTail(long start, byte[] tail) throws IOException {
    if (broken != null) {
      // A broken chain keeps all of its bytes as evidence; repair() quarantines them explicitly.
      return;
    }
    ChainCodec.Checked c = ChainCodec.check(tail, 0, tail.length, lastHash, options.key());
    VerifyResult cutAcknowledged = c.error() == null ? null : cutAcknowledgedLine(tail.length);
    if (cutAcknowledged != null) {
      broken = cutAcknowledged;
      LOG.warn("ledger {}: line {} is cut short but .head acknowledged it; appends are refused until"
          + " 'cpctl ledger repair'", path, lines + 1);
      return;
    }
    if (c.error() == null) {
      writeFully(channel, new byte[] {'\n'}, start + tail.length);
      consume(start, tail, 0, tail.length);
      knownEnd = start + tail.length + 1;
      LOG.warn("ledger {}: the last entry was complete but lacked its newline; completed it", path);
    } else {
      Path saved = path.resolveSibling(path.getFileName() + ".torn-" + clock.millis());
      Files.write(saved, tail);
      channel.truncate(start);
      channel.force(true);
      knownEnd = start;
      LOG.warn("ledger {}: cut a torn final line of {} bytes at offset {} (saved to {})", path, tail.length, start, saved);
    }
    if (broken == null) {
      writeHead();
    }
  }

  /** Picks up lines other processes appended. Caller holds both locks. */
  private void catchUp() throws IOException {
    long size = channel.size();
    if (size == knownEnd) {
      return;
    }
    if (size < knownEnd) {
      if (broken == null) {
        broken = VerifyResult.bad(lines, lines, "the file shrank from " + knownEnd + " to " + size
            + " bytes while open (it was truncated outside the ledger)");
      }
      return;
    }
    headAtOpen = null;
    scanFrom(knownEnd);
    checkKey();
    publish();
  }

  // ---------------------------------------------------------------- write

  /**
   * Appends an entry and returns its id. An entry whose idempotency key is already in the
   * ledger is not written again; the existing entry's id is returned.
   *
   * @throws LedgerCorruptException when the chain is broken
   */
  @Override
  public String write(LedgerEntry entry) {
    // FileChannel is interruptible: I/O on a thread whose interrupt flag is set (an activity thread
    // of a worker stopped with shutdownNow) closes the channel for every thread of the process.
    // The flag is set aside while the entry is written and restored for the caller.
    boolean interrupted = Thread.interrupted();
    long start = System.nanoTime();
    try {
      LedgerEntry withHeads = HeadCheckpoint.augment(path, entry);
      String id = locked("append to", () -> appendLocked(withHeads));
      if (options.durability() == Durability.FSYNC_EACH) {
        awaitDurable(writtenEnd);
      }
      cleared();
      Telemetry.current().metrics().ledgerAppend(tierLabel, STORE, System.nanoTime() - start);
      return id;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
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
        channel.force(false);
      } catch (IOException e) {
        throw new LedgerException("cannot flush ledger " + path + ": " + e.getMessage(), e);
      }
      durableEnd = Math.max(durableEnd, target);
    }
  }

  /** Work done under both locks after catching up with other processes. */
  private interface LockedWork<T> {
    T run() throws IOException;
  }

  private <T> T locked(String action, LockedWork<T> work) {
    boolean interrupted = Thread.interrupted(); // see write(): interrupted I/O would close the channel
    lock.lock();
    try (FileLock held = channel.lock()) {
      assert held.isValid();
      catchUp();
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

  private String appendLocked(LedgerEntry entry) throws IOException {
    if (broken != null) {
      rereadIfChanged();
    }
    if (broken != null) {
      LedgerProblem p = LedgerProblem.corrupt(path, broken);
      report(p);
      LedgerCorruptException refused = new LedgerCorruptException(path.toString(), broken);
      refused.initCause(new LedgerUnwritableException(p, null));
      throw refused;
    }
    String key = entry.idempotencyKey();
    String existing = index.idForKey(key);
    if (existing != null) {
      return existing;
    }
    if (keyed.needsMarker(options.key(), lines, entry)) {
      appendLocked(KeyedChain.marker(path, options.key(), lines, lastHash));
      LOG.warn("ledger {}: keyed from line {} on ({} key id {}); the {} entries before it were written without a key",
          path, lines, ChainKey.VARIABLE, options.key().id(), lines - 1);
    }
    String id = entry.entryId();
    if (id != null && index.containsId(id)) {
      throw new LedgerException("ledger " + path + " already holds entry_id " + id + "; entry ids are unique");
    }
    if (id == null) {
      id = newId(key);
      while (index.containsId(id)) {
        id = newId(null);
      }
    }
    String timestamp = entry.timestamp() != null ? entry.timestamp()
        : clock.instant().truncatedTo(ChronoUnit.MICROS).toString();
    ObjectNode node = entry.toAppendJson(id, timestamp, lastHash, options.key());
    String hash = ChainCodec.hashOf(node, options.key());
    node.put("hash", hash);
    byte[] line = ChainCodec.line(node);
    try {
      if (FaultPoints.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, entry.eventType()))) {
        writeFully(channel, Arrays.copyOf(line, line.length / 2), knownEnd);
        channel.force(false);
        FaultPoints.pause(FaultPoints.of(FaultPoints.LEDGER_TORN, entry.eventType()));
      }
      WriteFaults.check(path);
      writeFully(channel, line, knownEnd);
    } catch (IOException e) {
      try {
        channel.truncate(knownEnd);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      Optional<LedgerProblem> p = LedgerProblem.ofIo(path, e);
      if (p.isPresent()) {
        report(p.get());
        throw new LedgerUnwritableException(p.get(), e);
      }
      throw e;
    }
    FaultPoints.at(FaultPoints.of(FaultPoints.LEDGER_WRITTEN, entry.eventType()));
    index.add(new LedgerIndex.Row(knownEnd, line.length, id, entry.eventType(), entry.sessionId(),
        entry.workOrderId()), key);
    knownEnd += line.length;
    writtenEnd = knownEnd;
    lines++;
    lastHash = hash;
    LAST_APPEND.set(new String[] {path.toString(), id, hash});
    keyed.appended(options.key() != null, lines);
    writeHead();
    if (options.durability() == Durability.BATCHED) {
      dirty = true;
    }
    return id;
  }

  /**
   * Why an append would be refused now, or empty: a broken chain, a file that cannot be opened for
   * writing (immutable, read-only, no permission) or a disk with less than
   * {@link #FREE_BYTES_TO_RESUME} free. Writes nothing, so a caller about to do something that
   * must be recorded (the gateway, before it pays for a call) can refuse first. Catches up with
   * other processes first; a problem is logged once until it is fixed.
   */
  @Override
  public Optional<LedgerProblem> appendProblem() {
    Optional<LedgerProblem> problem = locked("check", () -> {
      if (broken != null) {
        rereadIfChanged();
      }
      return broken != null ? Optional.of(LedgerProblem.corrupt(path, broken)) : Optional.<LedgerProblem>empty();
    });
    if (problem.isEmpty()) {
      // Outside the locks: the probe touches only file metadata, and needs neither lock.
      problem = writeRefusal();
    }
    if (problem.isPresent()) {
      report(problem.get());
    } else {
      cleared();
    }
    return problem;
  }

  /**
   * Below this many free bytes a disk counts as full: an EXCHANGE (a prompt and a response, tens of
   * kB, rarely more) must fit, and a disk this close to full fails the next write anyway.
   */
  static final long FREE_BYTES_TO_RESUME = 1L << 20;

  /**
   * Whether the file system would refuse an append now, found without writing to the ledger and
   * without opening it: {@code access(W_OK)} reports an immutable or read-only file, a read-only
   * mount and a missing permission, where opening and closing a second descriptor of the file
   * would release this process's lock on it (POSIX record locks belong to the process and file).
   */
  private Optional<LedgerProblem> writeRefusal() {
    try {
      WriteFaults.check(path);
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
        return LedgerProblem.ofIo(path, new IOException(WriteFaults.DISK_FULL + " (" + free + " bytes free)"));
      }
      return Optional.empty();
    } catch (IOException e) {
      // An error that is neither a full disk nor a refusal is left to the write itself.
      return LedgerProblem.ofIo(path, e);
    }
  }

  /** Appends work (again): logs that once when a problem was reported. */
  private void cleared() {
    if (reported != null) {
      reported = null;
      LOG.warn("{} takes appends again", LedgerProblem.label(path));
    }
  }

  /**
   * A chain found broken is read again from the start when the file changed since (another
   * process ran {@code cpctl ledger repair}): the check a freshly started process would make, so
   * a running worker takes appends again after a repair without a restart. Caller holds both locks.
   */
  private void rereadIfChanged() throws IOException {
    long size = channel.size();
    if (size != brokenReadAtSize) {
      rescan();
      brokenReadAtSize = broken != null ? channel.size() : -1;
    }
  }

  /** Logs a problem once (one line for the operator), until appends work again. */
  private void report(LedgerProblem p) {
    String m = p.message();
    if (!m.equals(reported)) {
      reported = m;
      LOG.error("{}", m);
    }
  }

  static String newId(String idempotencyKey) {
    if (idempotencyKey != null) {
      return "LED-" + Json.sha256(idempotencyKey).substring(0, 16);
    }
    return "LED-" + String.format("%016x", ThreadLocalRandom.current().nextLong());
  }

  /** Writes all of {@code bytes} at {@code at} (a positional write may write only part). */
  static void writeFully(FileChannel channel, byte[] bytes, long at) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    long pos = at;
    while (buf.hasRemaining()) {
      pos += channel.write(buf, pos);
    }
  }

  /**
   * Reads from {@code at} until {@code buf} is full or the file ends; the caller decides what a
   * short read (a buffer with room left) means.
   */
  private static void readFully(FileChannel channel, ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos);
      if (n < 0) {
        break;
      }
      pos += n;
    }
  }

  private void writeHead() throws IOException {
    LedgerHead head = new LedgerHead(lines, lastHash);
    head.write(headChannel);
    published = head;
  }

  /** Makes the current head visible to other ledgers' checkpoints when the chain is intact. */
  private void publish() {
    if (broken == null) {
      published = new LedgerHead(lines, lastHash);
    }
  }

  /** The last intact head of the ledger at {@code path} if it is open in this JVM, else null. */
  static LedgerHead publishedHead(Path path) {
    Ledger l;
    synchronized (OPEN) {
      l = OPEN.get(path.toAbsolutePath().normalize());
    }
    return l == null ? null : l.published;
  }

  // ---------------------------------------------------------------- read

  /** Entries matching the query, in file order. */
  @Override
  public List<LedgerEntry> query(LedgerQuery q) {
    return locked("read", () -> {
      List<LedgerEntry> out = new ArrayList<>();
      for (int row : index.select(q)) {
        out.add(readRow(index.row(row)));
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
      List<Integer> rows = index.select(q);
      for (int k = rows.size() - 1; k >= 0; k--) {
        if (!visitor.test(readRow(index.row(rows.get(k))))) {
          break;
        }
      }
      return null;
    });
  }






  @Override
  public Optional<LedgerEntry> byId(String entryId) {
    return locked("read", () -> {
      Integer row = index.rowOf(entryId);
      return row == null ? Optional.<LedgerEntry>empty() : Optional.of(readRow(index.row(row)));
    });
  }

  /**
   * The chain hash of entry {@code entryId}: from memory when it is the entry this thread last
   * appended to this ledger (what a span asks right after the write, issue 14), else read.
   */
  @Override
  public Optional<String> hashOf(String entryId) {
    String[] last = LAST_APPEND.get();
    if (last != null && last[0].equals(path.toString()) && last[1].equals(entryId)) {
      return Optional.of(last[2]);
    }
    return byId(entryId).map(LedgerEntry::hash);
  }

  /** The id already written under an idempotency key, if any. */
  @Override
  public Optional<String> idForKey(String idempotencyKey) {
    return locked("read", () -> Optional.ofNullable(index.idForKey(idempotencyKey)));
  }

  private LedgerEntry readRow(LedgerIndex.Row row) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(row.length());
    readFully(channel, buf, row.offset());
    if (buf.hasRemaining()) {
      throw new IOException("unexpected end of file at offset " + (row.offset() + buf.position()));
    }
    return LedgerEntry.fromJson(Json.MAPPER.readTree(buf.array(), 0, row.length() - 1));
  }

  /** Number of lines in the ledger (including any bad ones). */
  @Override
  public long size() {
    return locked("read", () -> lines);
  }

  // ---------------------------------------------------------------- verify / repair

  /** Walks the file on disk from the first line and reports the first bad line, if any. */
  @Override
  public VerifyResult verify() {
    return locked("verify", this::verifyLocked);
  }

  private void scanVerifyOnly() throws IOException {
    byte[] tail = scanLines(0);
    if (tail.length > 0 && broken == null) {
      VerifyResult cut = cutAcknowledgedLine(tail.length);
      broken = cut != null ? cut
          : VerifyResult.bad(lines, lines + 1, "incomplete final line of " + tail.length + " bytes (a torn write)");
    }
    checkHeadLength();
    checkKey();
  }

  /**
   * A final line without its newline that the head counts was acknowledged to a writer: it was
   * complete once, so its being cut is damage or tampering, not a torn write, and it is not
   * moved aside. Null when the head does not count it (a write that tore before it was acknowledged).
   */
  private VerifyResult cutAcknowledgedLine(int tailBytes) {
    if (headAtOpen == null || headAtOpen.entries() <= lines) {
      return null;
    }
    return VerifyResult.bad(lines, lines + 1, "line " + (lines + 1) + " is cut short (" + tailBytes
        + " bytes, no newline) but was acknowledged by .head (length " + headAtOpen.entries() + " entries, hash "
        + headAtOpen.lastHash() + "): acknowledged data was damaged or tampered with, not a torn write");
  }

  /** After a full scan: a keyed chain read without a key, or with a key on a chain that has none. */
  private void checkKey() {
    if (broken == null) {
      broken = keyed.afterScan(options.key(), lines);
    }
  }

  /** A head that counts more entries than the file holds means the tail was deleted. */
  private void checkHeadLength() {
    if (broken == null && headAtOpen != null && headAtOpen.entries() > lines) {
      broken = VerifyResult.bad(lines, lines + 1, "missing: the head records " + headAtOpen.entries()
          + " entries but the file holds " + lines + " (lines were deleted from the end)");
    }
  }

  /** Whether the chain was found broken (writes are refused). */
  @Override
  public Optional<VerifyResult> brokenChain() {
    lock.lock();
    try {
      return Optional.ofNullable(broken);
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
    return repairFile().map(Path::toString);
  }

  /** {@link #repair()}, returning the quarantine file. */
  public Optional<Path> repairFile() {
    Optional<Path> quarantined = locked("repair", () -> {
      VerifyResult bad = verifyLocked();
      if (bad.ok() || bad.kind() == VerifyResult.Kind.UNKEYED) {
        // Not keyed yet is not damage: the next append with the key adopts the ledger (KeyedChain).
        return Optional.<Path>empty();
      }
      if (bad.keyProblem()) {
        // Without the right key nothing can be told apart from tampering, so nothing is moved.
        throw new LedgerException("cannot repair " + path + ": " + bad.reason() + "; nothing was changed");
      }
      long cutAt = offsetOfLine(bad.firstBadLine());
      long size = channel.size();
      Path quarantine = path.resolveSibling(path.getFileName() + ".quarantine-" + clock.millis());
      byte[] moved = new byte[(int) Math.max(0, size - cutAt)];
      readFully(channel, ByteBuffer.wrap(moved), cutAt);
      Files.write(quarantine, moved);
      channel.truncate(cutAt);
      channel.force(true);
      Files.deleteIfExists(LedgerHead.pathFor(path));
      headChannel.close();
      headChannel = LedgerHead.open(path);
      rescan();
      ObjectNode meta = Json.object()
          .put("first_bad_line", bad.firstBadLine())
          .put("problem", bad.reason())
          .put("quarantined_bytes", moved.length)
          .put("quarantine_file", quarantine.getFileName().toString());
      appendLocked(LedgerEntry.builder("LEDGER_REPAIRED").submissionId(path.getFileName().toString())
          .decision("REPAIRED").reason("chain broken at line " + bad.firstBadLine() + ": " + bad.reason())
          .metadata(meta).build());
      LOG.warn("ledger {}: repaired; lines from {} moved to {}", path, bad.firstBadLine(), quarantine);
      return Optional.of(quarantine);
    });
    if (quarantined.isPresent() && options.durability() == Durability.FSYNC_EACH) {
      // The LEDGER_REPAIRED entry is flushed the way write() flushes, which also records it as durable.
      awaitDurable(writtenEnd);
    }
    return quarantined;
  }

  private VerifyResult verifyLocked() throws IOException {
    Ledger probe = new Ledger(path, options, clock);
    probe.channel = channel;
    probe.index = new LedgerIndex();
    probe.lastHash = ChainCodec.GENESIS;
    probe.headAtOpen = LedgerHead.read(path);
    probe.scanVerifyOnly();
    if (probe.broken == null) {
      VerifyResult unkeyed = probe.keyed.unkeyedUnderKey(options.key(), probe.lines);
      if (unkeyed != null) {
        return unkeyed;
      }
    }
    return probe.broken != null ? probe.broken : VerifyResult.ok(probe.lines);
  }

  /** Byte offset where 1-based line {@code n} starts (the file size when past the end). */
  private long offsetOfLine(long n) throws IOException {
    long line = 1;
    long pos = 0;
    long size = channel.size();
    ByteBuffer buf = ByteBuffer.allocate(SCAN_CHUNK_BYTES);
    while (line < n && pos < size) {
      buf.clear();
      int read = channel.read(buf, pos);
      if (read <= 0) {
        break;
      }
      for (int i = 0; i < read; i++) {
        if (buf.get(i) == '\n') {
          line++;
          if (line == n) {
            return pos + i + 1;
          }
        }
      }
      pos += read;
    }
    return line == n ? pos : size;
  }

  // ---------------------------------------------------------------- durability / close

  private void flushIfDirty() {
    if (!dirty) {
      return;
    }
    dirty = false;
    try {
      channel.force(false);
    } catch (IOException e) {
      dirty = true;
      LOG.warn("ledger {}: background flush failed: {}", path, e.getMessage());
    }
  }

  /** Forces written entries to disk now, whatever the durability policy. */
  @Override
  public void flush() {
    try {
      channel.force(false);
      dirty = false;
    } catch (IOException e) {
      throw new LedgerException("cannot flush ledger " + path + ": " + e.getMessage(), e);
    }
  }

  /** Releases this reference; the file closes when the last holder closes it. */
  @Override
  public void close() {
    synchronized (OPEN) {
      if (--refs > 0) {
        return;
      }
      OPEN.remove(path);
    }
    if (flushTask != null) {
      flushTask.cancel(false);
    }
    lock.lock();
    try {
      if (channel.isOpen()) {
        if (options.durability() != Durability.NONE) {
          channel.force(false);
        }
        channel.close();
      }
      headChannel.close();
    } catch (IOException e) {
      LOG.warn("ledger {}: close failed: {}", path, e.getMessage());
    } finally {
      lock.unlock();
    }
  }

  private static synchronized ScheduledExecutorService flusher() {
    if (flusher == null) {
      flusher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ledger-flusher");
        t.setDaemon(true);
        return t;
      });
    }
    return flusher;
  }
}
