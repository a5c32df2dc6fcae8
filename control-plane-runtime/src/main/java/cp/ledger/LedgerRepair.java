package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.EventType;
import cp.model.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verify and the byte work of repair for a JSONL ledger: walking the file from the first line
 * without changing it, and moving every line from the first bad one to the end into a
 * {@code .quarantine-*} file (nothing is deleted). The {@link Ledger} rescans and records the
 * LEDGER_REPAIRED entry.
 *
 * <p>Thread-safety: stateless; the caller holds the ledger's lock and its file lock.
 */
final class LedgerRepair {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

  /** What a repair moved aside: the quarantine file, or null when nothing was moved. */
  record Quarantine(Path file, int bytes) {}

  /** What {@code repair} returns when it moved no line (only the {@code .head} sidecar was rewritten). */
  static final String NOTHING_MOVED = "nothing moved: the .head sidecar was rewritten from the ledger";

  private LedgerRepair() {}

  /** The first bad line of the file on disk, or OK with its line count. */
  static VerifyResult verify(LedgerFile file, Path path, LedgerOptions options, Clock clock) throws IOException {
    return new LedgerLoader(file, path, options, clock, null).verifyFromStart();
  }

  /** {@link #verify} of a file that has no {@code .head} by design (an export). */
  static VerifyResult verifyHeadless(LedgerFile file, Path path, LedgerOptions options, Clock clock) throws IOException {
    return new LedgerLoader(file, path, options, clock, null, false).verifyFromStart();
  }

  /** Work on the ledger that may fail with an I/O error. */
  interface Step {
    void run() throws IOException;
  }

  /** Appends an entry to the ledger under repair (its append path, the locks held). */
  interface Append {
    LedgerStream.Appended append(LedgerEntry e) throws IOException;
  }

  /**
   * The repair of a chain broken at {@code bad}: moves the bad lines aside, lets the ledger read
   * itself again ({@code reload}), and appends LEDGER_REPAIRED saying what was moved. Returns the
   * quarantine file, or null when there was no line to move (a {@code .head} problem).
   */
  static Path quarantineFrom(LedgerFile file, Path path, VerifyResult bad, Clock clock, Step reload, Append append)
      throws IOException {
    Quarantine moved = quarantineFrom(file, path, bad.firstBadLine(), clock);
    reload.run();
    ObjectNode meta = Json.object()
        .put(LedgerKeys.FIRST_BAD_LINE, bad.firstBadLine())
        .put(LedgerKeys.PROBLEM, bad.reason())
        .put("quarantined_bytes", moved.bytes());
    if (moved.file() != null) {
      meta.put(LedgerKeys.QUARANTINE, moved.file().getFileName().toString());
    }
    append.append(LedgerEntry.builder(EventType.LEDGER_REPAIRED.wire())
        .submissionId(path.getFileName().toString())
        .decision("REPAIRED").reason("chain broken at line " + bad.firstBadLine() + ": " + bad.reason())
        .metadata(meta).build());
    LOG.warn("ledger {}: repaired; lines from {} moved to {}", path, bad.firstBadLine(),
        moved.file() == null ? "nowhere (none there)" : moved.file());
    return moved.file();
  }

  /**
   * Verifies the ledger file at {@code path} without opening it for writing (a read-only channel
   * under a shared file lock; nothing is created, recovered or moved): what {@code cpctl ledger
   * verify} runs. A ledger open in this JVM is verified through its instance (same file lock).
   *
   * @param headRequired false for a file that has no {@code .head} by design (an export)
   */
  static VerifyResult verifyFile(Path path, LedgerOptions options, boolean headRequired) {
    Ledger open = OpenLedgers.peek(path);
    if (open != null && headRequired) {
      return open.verify();
    }
    return Uninterrupted.call(() -> {
      try (LedgerFile f = LedgerFile.openReadOnly(path); FileLock held = f.lockShared()) {
        assert held.isValid();
        return headRequired ? verify(f, path, options, Clock.systemUTC())
            : verifyHeadless(f, path, options, Clock.systemUTC());
      } catch (IOException e) {
        throw new LedgerException("cannot verify ledger " + path + ": " + e.getMessage(), e);
      }
    });
  }

  /** Moves the lines from 1-based {@code firstBadLine} to the end into a quarantine file and cuts them off. */
  static Quarantine quarantineFrom(LedgerFile file, Path path, long firstBadLine, Clock clock) throws IOException {
    long cutAt = offsetOfLine(file, firstBadLine);
    long size = file.size();
    if (cutAt >= size) {
      return new Quarantine(null, 0);
    }
    Path quarantine = path.resolveSibling(path.getFileName() + ".quarantine-" + clock.millis());
    byte[] moved = new byte[(int) Math.max(0, size - cutAt)];
    file.readFully(ByteBuffer.wrap(moved), cutAt);
    Files.write(quarantine, moved);
    file.truncate(cutAt);
    file.force(true);
    return new Quarantine(quarantine, moved.length);
  }

  /** Byte offset where 1-based line {@code n} starts (the file size when past the end). */
  private static long offsetOfLine(LedgerFile file, long n) throws IOException {
    long line = 1;
    long pos = 0;
    long size = file.size();
    ByteBuffer buf = ByteBuffer.allocate(LedgerLoader.SCAN_CHUNK_BYTES);
    while (line < n && pos < size) {
      buf.clear();
      int read = file.read(buf, pos);
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
}
