package cp.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory view of a JSONL ledger file and how it is built: scanning the lines (checking the
 * chain, the key and the {@code .head} length), indexing them ({@link LedgerIndex}), recovering a
 * torn tail on open, and catching up on lines other processes appended. It holds the line count,
 * the end of the last complete line, the last hash and the broken chain, if any.
 *
 * <p>A torn final line is completed if it is an intact entry that only lacks its newline,
 * otherwise cut off and kept in a {@code .torn-*} file; a cut final line that the head counts was
 * acknowledged is damage, not a torn write, and stays in place (the chain counts as broken).
 *
 * <p>Thread-safety: none of its own. Every method is called by the owning {@link Ledger} under
 * its lock and the file lock (or, for {@link #verifyFromStart}, on a fresh instance used by one
 * thread that holds both).
 */
final class LedgerLoader {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);
  /** Read size for scans; lines longer than this are stitched across reads. */
  static final int SCAN_CHUNK_BYTES = 1 << 20;

  private final LedgerFile file;
  private final Path path;
  private final LedgerOptions options;
  private final Clock clock;
  /** The sidecar to update after a repair of the tail or a rescan; null for a verify-only scan. */
  private final HeadSidecar head;

  private LedgerIndex index = new LedgerIndex();
  private long knownEnd;
  private long lines;
  private String lastHash = ChainCodec.GENESIS;
  private VerifyResult broken;
  private LedgerHead headAtOpen;
  /** The sidecar as read at the last full scan (absent, garbage or a head). */
  private LedgerHead.Read headRead = new LedgerHead.Read(LedgerHead.State.ABSENT, null, 0);
  /** Whether a missing or garbage {@code .head} counts as damage (false for an export, which has none). */
  private final boolean headRequired;
  /** Entries recovered from torn tails, for the owning ledger to append ({@link #takeRecovered}). */
  private final java.util.List<LedgerEntry> recovered = new java.util.ArrayList<>();
  /** The keyed-chain state of the lines read so far (see {@link ChainKey}). */
  private KeyedChain keyed = new KeyedChain();

  LedgerLoader(LedgerFile file, Path path, LedgerOptions options, Clock clock, HeadSidecar head) {
    this(file, path, options, clock, head, true);
  }

  LedgerLoader(LedgerFile file, Path path, LedgerOptions options, Clock clock, HeadSidecar head, boolean headRequired) {
    this.headRequired = headRequired;
    this.file = file;
    this.path = path;
    this.options = options;
    this.clock = clock;
    this.head = head;
  }

  LedgerIndex index() {
    return index;
  }

  /** The end of the last complete line: where the next entry is written. */
  long knownEnd() {
    return knownEnd;
  }

  /** Lines read or appended (including any bad ones). */
  long lines() {
    return lines;
  }

  String lastHash() {
    return lastHash;
  }

  /** The first problem of the chain, or null while it is intact. */
  VerifyResult broken() {
    return broken;
  }

  KeyedChain keyed() {
    return keyed;
  }

  /** Records an entry the ledger appended at {@link #knownEnd()}: indexes it and moves the end and the hash on. */
  void appended(LedgerIndex.Row row, String idempotencyKey, String hash) {
    index.add(row, idempotencyKey);
    knownEnd += row.length();
    lines++;
    lastHash = hash;
  }

  /** The entries recovered from torn tails since the last call, for the ledger to append where the tails were. */
  java.util.List<LedgerEntry> takeRecovered() {
    if (recovered.isEmpty()) {
      return java.util.List.of();
    }
    java.util.List<LedgerEntry> out = java.util.List.copyOf(recovered);
    recovered.clear();
    return out;
  }

  /** Writes the current length and hash to the {@code .head} sidecar. */
  void writeHead() throws IOException {
    head.write(lines, lastHash);
  }

  /** Rebuilds all in-memory state from the file. */
  void rescan() throws IOException {
    rescan(false);
  }

  /**
   * Rebuilds all in-memory state from the file; {@code rewritingHead}: a repair deleted the
   * {@code .head} to write it again from the lines kept, so its absence is no evidence.
   */
  void rescan(boolean rewritingHead) throws IOException {
    index = new LedgerIndex();
    knownEnd = 0;
    lines = 0;
    lastHash = ChainCodec.GENESIS;
    broken = null;
    keyed = new KeyedChain();
    headRead = LedgerHead.readChecked(path);
    headAtOpen = headRead.head();
    scanFrom(0);
    checkHeadLength();
    if (!rewritingHead) {
      checkHeadFile();
    }
    checkKey();
    if (broken == null && (headAtOpen == null || headAtOpen.entries() != lines)) {
      writeHead();
    }
    publish();
  }

  /** Picks up lines other processes appended. */
  void catchUp() throws IOException {
    long size = file.size();
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

  /**
   * On a fresh instance: walks the file from the first line without changing it and reports the
   * first bad line, if any (a torn tail counts as bad here; nothing is repaired).
   */
  VerifyResult verifyFromStart() throws IOException {
    headRead = LedgerHead.readChecked(path);
    headAtOpen = headRead.head();
    byte[] tail = scanLines(0);
    if (tail.length > 0 && broken == null) {
      VerifyResult cut = cutAcknowledgedLine(tail.length);
      broken = cut != null ? cut
          : VerifyResult.bad(lines, lines + 1, VerifyResult.INCOMPLETE_FINAL_LINE + " of " + tail.length + " bytes (a torn write or"
              + " garbage; the next process to open the ledger, or 'cpctl ledger repair', saves it to a .torn-* file"
              + " and recovers what it holds)");
    }
    checkHeadLength();
    checkHeadFile();
    checkKey();
    if (broken == null) {
      VerifyResult unkeyed = keyed.unkeyedUnderKey(options.key(), lines);
      if (unkeyed != null) {
        return unkeyed;
      }
    }
    return broken != null ? broken : VerifyResult.ok(lines);
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
    long size = file.size();
    long pos = start;
    byte[] carry = new byte[0];
    long carryStart = start;
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(SCAN_CHUNK_BYTES, Math.max(1, size - start)));
    while (pos < size) {
      buf.clear();
      int n = file.read(buf, pos);
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
    } else {
      index.skipLine();
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
      file.write(new byte[] {'\n'}, start + tail.length);
      consume(start, tail, 0, tail.length);
      knownEnd = start + tail.length + 1;
      LOG.warn("ledger {}: the last entry was complete but lacked its newline; completed it", path);
    } else {
      Path saved = path.resolveSibling(path.getFileName() + ".torn-" + clock.millis());
      Files.write(saved, tail);
      file.truncate(start);
      file.force(true);
      knownEnd = start;
      TornTail.recover(tail, saved).ifPresent(recovered::add);
      LOG.warn("ledger {}: cut a torn final line of {} bytes at offset {} (saved to {}{})", path, tail.length, start,
          saved, recovered.isEmpty() ? "; it holds nothing to recover" : "; what it holds is recorded in its place");
    }
    if (broken == null) {
      writeHead();
    }
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

  /**
   * After a full scan: a {@code .head} that is not a head record, missing while the ledger holds
   * entries, or (on a keyed chain) without its MAC. Each hides a deleted tail, so each is damage
   * until {@code repair} rewrites the sidecar from the ledger and records that it did.
   */
  private void checkHeadFile() {
    if (broken != null || !headRequired) {
      return;
    }
    String repairIt = "; 'cpctl ledger repair' rewrites it from the ledger and records that";
    if (headRead.state() == LedgerHead.State.GARBAGE) {
      broken = VerifyResult.bad(lines, lines + 1, "the .head sidecar is not a head record (" + headRead.bytes()
          + " bytes that are not {entries, last_hash}): it was damaged or tampered with, and lines deleted from the"
          + " end cannot be told" + repairIt);
    } else if (headRead.state() == LedgerHead.State.ABSENT && lines > 0) {
      broken = VerifyResult.bad(lines, lines + 1, "the .head sidecar is missing although the ledger holds " + lines
          + " entries: deleted, maybe with lines from the end" + repairIt);
    } else if (headAtOpen != null && keyed.anyKeyed()) {
      String macProblem = headAtOpen.macProblem(options.key(), path.getFileName().toString());
      if (macProblem != null) {
        broken = VerifyResult.bad(lines, lines + 1, macProblem + repairIt);
      }
    }
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

  /** Makes the current head visible to other ledgers' checkpoints when the chain is intact. */
  private void publish() {
    if (broken == null) {
      head.publish(lines, lastHash);
    }
  }
}
