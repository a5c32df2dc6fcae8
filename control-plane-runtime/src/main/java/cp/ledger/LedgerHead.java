package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The sidecar {@code <ledger>.head}: how many entries the ledger holds and the last hash, and
 * with {@code CP_LEDGER_HMAC_KEY} an HMAC of both ({@code mac}).
 *
 * <p>A hash chain alone cannot tell that its last lines were deleted: the remaining prefix is a
 * perfectly valid chain. The head records the length the writer last acknowledged, so
 * {@code verify} can name the first missing line; its MAC makes a head rewritten to match a cut
 * file detectable without the key.
 *
 * <p>Written in place at a fixed width ({@link #WIDTH} bytes, padded with spaces), in one write
 * and never truncated, so a process killed while writing it leaves the old head or the new one,
 * never an empty or half-written file: a head that is missing, empty or not a head record is
 * evidence, not a torn write.
 */
record LedgerHead(long entries, String lastHash, String mac) {
  /** Bytes of a head record on disk: room for the longest one (19-digit count, 64-digit hash and MAC). */
  static final int WIDTH = 256;

  LedgerHead(long entries, String lastHash) {
    this(entries, lastHash, null);
  }

  /** What the sidecar holds. */
  enum State {
    /** No sidecar file, or an empty one. */
    ABSENT,
    /** A file whose content is not a head record. */
    GARBAGE,
    /** A head record. */
    OK
  }

  /** A read sidecar: its state, the head when OK, and the first bytes when GARBAGE (for messages). */
  record Read(State state, LedgerHead head, int bytes) {}

  static Path pathFor(Path ledger) {
    return ledger.resolveSibling(ledger.getFileName() + ".head");
  }

  /** The head, or null when absent or unreadable (what the other ledgers' checkpoints use). */
  static LedgerHead read(Path ledger) {
    Read r = readChecked(ledger);
    return r.state() == State.OK ? r.head() : null;
  }

  /** What the sidecar holds, told apart: absent, garbage or a head. */
  static Read readChecked(Path ledger) {
    Path p = pathFor(ledger);
    byte[] bytes;
    try {
      if (!Files.isRegularFile(p)) {
        return new Read(State.ABSENT, null, 0);
      }
      bytes = Files.readAllBytes(p);
    } catch (IOException e) {
      return new Read(State.ABSENT, null, 0);
    }
    String text = new String(bytes, StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      return new Read(State.ABSENT, null, 0);
    }
    try {
      JsonNode n = Json.MAPPER.readTree(text);
      if (n == null || !n.path("entries").isIntegralNumber() || !n.path("last_hash").isTextual()) {
        return new Read(State.GARBAGE, null, bytes.length);
      }
      return new Read(State.OK, new LedgerHead(n.get("entries").asLong(), n.get("last_hash").asText(),
          n.hasNonNull("mac") ? n.get("mac").asText() : null), bytes.length);
    } catch (IOException | RuntimeException e) {
      return new Read(State.GARBAGE, null, bytes.length);
    }
  }

  /** The MAC of a head of the ledger named {@code name} (its file name) under {@code key}; null without a key. */
  static String macOf(ChainKey key, String name, long entries, String lastHash) {
    return key == null ? null : key.macHex("ledger_head\n" + name + "\n" + entries + "\n" + lastHash);
  }

  /**
   * With a key: why this head's MAC does not vouch for it (missing, or not its own), or null when
   * it does; null without a key.
   */
  String macProblem(ChainKey key, String name) {
    if (key == null) {
      return null;
    }
    if (mac == null) {
      return "the .head sidecar carries no MAC under " + ChainKey.VARIABLE + " (written without the key or before"
          + " this version, or rewritten outside the ledger)";
    }
    return mac.equals(macOf(key, name, entries, lastHash)) ? null
        : "the .head sidecar does not carry its MAC: it was rewritten outside the ledger";
  }

  void write(FileChannel channel) throws IOException {
    ObjectNode n = Json.object().put("entries", entries).put("last_hash", lastHash);
    if (mac != null) {
      n.put("mac", mac);
    }
    byte[] record = Json.write(n).getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[Math.max(WIDTH, record.length + 1)];
    Arrays.fill(bytes, (byte) ' ');
    System.arraycopy(record, 0, bytes, 0, record.length);
    bytes[bytes.length - 1] = '\n';
    LedgerFile.writeFully(channel, bytes, 0);
    if (channel.size() > bytes.length) {
      channel.truncate(bytes.length); // a head of the older, variable-width format was longer
    }
  }

  static FileChannel open(Path ledger) throws IOException {
    return FileChannel.open(pathFor(ledger), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }
}
