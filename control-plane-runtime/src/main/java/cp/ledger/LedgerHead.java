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

/**
 * The sidecar {@code <ledger>.head}: how many entries the ledger holds and the last hash.
 *
 * <p>A hash chain alone cannot tell that its last lines were deleted: the remaining prefix is a
 * perfectly valid chain. The head records the length the writer last acknowledged, so
 * {@code verify} can name the first missing line.
 */
record LedgerHead(long entries, String lastHash) {

  static Path pathFor(Path ledger) {
    return ledger.resolveSibling(ledger.getFileName() + ".head");
  }

  /** The head, or null when absent or unreadable (a torn head write is not evidence of tampering). */
  static LedgerHead read(Path ledger) {
    Path p = pathFor(ledger);
    if (!Files.isRegularFile(p)) {
      return null;
    }
    try {
      JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(p));
      if (n == null || !n.has("entries") || !n.has("last_hash")) {
        return null;
      }
      return new LedgerHead(n.get("entries").asLong(), n.get("last_hash").asText());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  void write(FileChannel channel) throws IOException {
    ObjectNode n = Json.object().put("entries", entries).put("last_hash", lastHash);
    byte[] bytes = (Json.write(n) + "\n").getBytes(StandardCharsets.UTF_8);
    channel.truncate(0);
    LedgerFile.writeFully(channel, bytes, 0);
  }

  static FileChannel open(Path ledger) throws IOException {
    return FileChannel.open(pathFor(ledger), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }
}
