package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.nio.charset.StandardCharsets;

/**
 * How an entry becomes a line and how a line is checked.
 *
 * <p>{@code hash} is SHA-256 over the canonical JSON (keys sorted, no whitespace) of the entry
 * without its {@code hash} field, and that canonical form includes {@code prev_hash}, which
 * makes the lines a chain. The line on disk keeps a readable field order (id first, hash last);
 * only the hash input is canonical, so verification re-derives it from the parsed line.
 */
final class ChainCodec {
  /** prev_hash of the first entry. */
  static final String GENESIS = "0".repeat(64);

  private ChainCodec() {}

  /** The hash an entry must carry. */
  static String hashOf(ObjectNode withoutHash) {
    return Json.sha256(Json.canonical(withoutHash));
  }

  /** The complete line (with trailing newline) for a fully populated entry. */
  static byte[] line(ObjectNode withHash) {
    return (Json.write(withHash) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** A parsed, checked line. {@code error} is null when the line is intact. */
  record Checked(LedgerEntry entry, String hash, String prevHash, String error) {}

  /**
   * Parses one line (without its newline) and checks it against the previous line's hash.
   * The entry is returned whenever the line parses, even if the check fails, so readers can
   * still show a corrupt ledger.
   */
  static Checked check(byte[] bytes, int off, int len, String expectedPrev) {
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(bytes, off, len);
    } catch (Exception e) {
      return new Checked(null, null, null, "not valid JSON");
    }
    if (node == null || !node.isObject()) {
      return new Checked(null, null, null, "not a JSON object");
    }
    ObjectNode obj = (ObjectNode) node;
    LedgerEntry entry;
    try {
      entry = LedgerEntry.fromJson(obj);
    } catch (RuntimeException e) {
      return new Checked(null, null, null, "not a ledger entry: " + e.getMessage());
    }
    String hash = Json.text(obj, "hash", null);
    String prev = Json.text(obj, "prev_hash", null);
    if (hash == null) {
      return new Checked(entry, null, prev, "missing hash");
    }
    if (prev == null) {
      return new Checked(entry, hash, null, "missing prev_hash");
    }
    if (entry.entryId() == null) {
      return new Checked(entry, hash, prev, "missing entry_id");
    }
    // obj is this call's own parse and the entry copied what it keeps, so it can lose its hash.
    obj.remove("hash");
    String actual = hashOf(obj);
    if (!actual.equals(hash)) {
      return new Checked(entry, hash, prev, "hash mismatch (the entry was changed after it was written)");
    }
    if (!prev.equals(expectedPrev)) {
      return new Checked(entry, hash, prev, "prev_hash does not match the previous line's hash"
          + " (a line before it was removed, reordered or inserted)");
    }
    return new Checked(entry, hash, prev, null);
  }
}
