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
 *
 * <p>On a keyed chain ({@link ChainKey}) the entry also holds {@code "chain":"hmac-sha256"} and
 * {@code key_id}, both inside the canonical form, and {@code hash} is the hex HMAC-SHA256 of the
 * same canonical bytes. Another store (PostgreSQL) that builds the same canonical JSON produces
 * byte-identical hashes.
 */
final class ChainCodec {
  /** prev_hash of the first entry. */
  static final String GENESIS = "0".repeat(64);

  private ChainCodec() {}

  /** The hash an unkeyed entry must carry. */
  static String hashOf(ObjectNode withoutHash) {
    return Json.sha256(Json.canonical(withoutHash));
  }

  /** The hash an entry must carry: keyed when {@code key} is not null. */
  static String hashOf(ObjectNode withoutHash, ChainKey key) {
    return key == null ? hashOf(withoutHash) : key.macHex(Json.canonical(withoutHash));
  }

  /** What a check found. */
  enum Outcome {
    /** The line is intact. */
    OK,
    /** The line is bad: not an entry, a wrong hash, a broken link. */
    BAD,
    /** A keyed line read without a key: its link is checked, its hash cannot be. */
    NEEDS_KEY,
    /** A keyed line written with another key than the one given. */
    WRONG_KEY
  }

  /** The complete line (with trailing newline) for a fully populated entry. */
  static byte[] line(ObjectNode withHash) {
    return (Json.write(withHash) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A parsed, checked line. {@code error} is null when the line is intact or {@code outcome} is
   * NEEDS_KEY; {@code keyed} says whether the line claims a keyed hash.
   */
  record Checked(LedgerEntry entry, String hash, String prevHash, String error, Outcome outcome, boolean keyed) {
    Checked(LedgerEntry entry, String hash, String prevHash, String error) {
      this(entry, hash, prevHash, error, error == null ? Outcome.OK : Outcome.BAD, false);
    }
  }

  /** Like {@link #check(byte[], int, int, String, ChainKey)} for an unkeyed chain. */
  static Checked check(byte[] bytes, int off, int len, String expectedPrev) {
    return check(bytes, off, len, expectedPrev, null);
  }

  /**
   * Parses one line (without its newline) and checks it against the previous line's hash.
   * The entry is returned whenever the line parses, even if the check fails, so readers can
   * still show a corrupt ledger.
   */
  static Checked check(byte[] bytes, int off, int len, String expectedPrev, ChainKey key) {
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
    String chain = entry.chain();
    boolean keyed = chain != null;
    if (keyed && !ChainKey.ALGORITHM.equals(chain)) {
      return new Checked(entry, hash, prev, "unknown chain '" + chain + "' (known: " + ChainKey.ALGORITHM + ")",
          Outcome.BAD, true);
    }
    String brokenLink = prev.equals(expectedPrev) ? null
        : "prev_hash does not match the previous line's hash (a line before it was removed, reordered or inserted)";
    if (keyed && key == null) {
      return new Checked(entry, hash, prev, brokenLink, brokenLink == null ? Outcome.NEEDS_KEY : Outcome.BAD, true);
    }
    if (keyed && !key.id().equals(entry.keyId())) {
      return new Checked(entry, hash, prev, "wrong key: written with another key (key id " + entry.keyId() + ") than "
          + ChainKey.VARIABLE + " (key id " + key.id() + "); set the key this ledger was written with",
          Outcome.WRONG_KEY, true);
    }
    // obj is this call's own parse and the entry copied what it keeps, so it can lose its hash.
    obj.remove("hash");
    String actual = hashOf(obj, keyed ? key : null);
    if (!actual.equals(hash)) {
      return new Checked(entry, hash, prev, keyed
          ? "hash mismatch (the entry was changed after it was written, or re-hashed without " + ChainKey.VARIABLE + ")"
          : "hash mismatch (the entry was changed after it was written)", Outcome.BAD, keyed);
    }
    if (brokenLink != null) {
      return new Checked(entry, hash, prev, brokenLink, Outcome.BAD, keyed);
    }
    return new Checked(entry, hash, prev, null, Outcome.OK, keyed);
  }
}
