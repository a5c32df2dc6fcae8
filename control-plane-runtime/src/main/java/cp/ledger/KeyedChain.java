package cp.ledger;

import cp.model.EventType;
import cp.model.Json;
import java.nio.file.Path;

/**
 * The keyed-chain rules of one ledger, applied line by line as it is read and written.
 *
 * <ul>
 *   <li>Once a line is keyed ({@code "chain":"hmac-sha256"}), every later line must be: an
 *       unkeyed line after a keyed one is a chain rewritten or extended without the key.
 *   <li>A keyed line read without {@code CP_LEDGER_HMAC_KEY} cannot be checked: the ledger
 *       reports "keyed chain: set CP_LEDGER_HMAC_KEY to verify" (not tampering) and refuses
 *       appends, which would otherwise continue a keyed chain unkeyed.
 *   <li>A keyed line written with another key: the ledger says so and refuses appends.
 *   <li>A ledger written before the key was set is adopted by the first append with the key: a
 *       keyed {@value #MARKER} entry whose {@code prev_hash} covers every line before it, so
 *       from then on the whole file is authenticated. Until then {@code verify} with the key
 *       reports it as {@link VerifyResult.Kind#UNKEYED}.
 * </ul>
 */
final class KeyedChain {
  /** The entry that starts keying a ledger that already holds unkeyed entries. */
  static final String MARKER = EventType.LEDGER_KEYED.wire();

  /** 1-based line of the first keyed line, 0 when none. */
  private long keyedFrom;
  /** Whether the last line is keyed. */
  private boolean lastKeyed;
  /** 1-based line of the first keyed line read without a key, 0 when none. */
  private long needsKeyFrom;
  private String needsKeyId;

  /** Checks one read line (1-based {@code line}); returns the problem that breaks the chain here, or null. */
  VerifyResult accept(ChainCodec.Checked c, long line) {
    if (c.outcome() == ChainCodec.Outcome.BAD) {
      return VerifyResult.bad(line - 1, line, c.error());
    }
    if (c.outcome() == ChainCodec.Outcome.WRONG_KEY) {
      return VerifyResult.of(VerifyResult.Kind.WRONG_KEY, line - 1, line, "keyed chain, " + c.error());
    }
    if (c.outcome() == ChainCodec.Outcome.NEEDS_KEY && needsKeyFrom == 0) {
      needsKeyFrom = line;
      needsKeyId = c.entry().keyId();
    }
    if (c.keyed()) {
      keyedFrom = keyedFrom == 0 ? line : keyedFrom;
    } else if (keyedFrom > 0) {
      return VerifyResult.bad(line - 1, line, "not keyed, but line " + keyedFrom + " before it is: the chain was"
          + " rewritten or extended without " + ChainKey.VARIABLE);
    }
    lastKeyed = c.keyed();
    return null;
  }

  /** Whether any line read or appended so far is keyed. */
  boolean anyKeyed() {
    return keyedFrom > 0;
  }

  /** Records an entry this process appended. */
  void appended(boolean keyedEntry, long line) {
    if (keyedEntry && keyedFrom == 0) {
      keyedFrom = line;
    }
    lastKeyed = keyedEntry;
  }

  /** After a whole file was read: a keyed chain without a key cannot be verified. */
  VerifyResult afterScan(ChainKey key, long lines) {
    if (key == null && needsKeyFrom > 0) {
      return VerifyResult.of(VerifyResult.Kind.NEEDS_KEY, needsKeyFrom - 1, needsKeyFrom, "keyed chain: set "
          + ChainKey.VARIABLE + " to verify (lines " + needsKeyFrom + "-" + lines + " are authenticated with "
          + ChainKey.ALGORITHM + ", key id " + needsKeyId + "; their links are intact)");
    }
    return null;
  }

  /** With a key: a ledger none of whose entries is keyed authenticates nothing. */
  VerifyResult unkeyedUnderKey(ChainKey key, long lines) {
    if (key == null || lines == 0 || keyedFrom > 0) {
      return null;
    }
    return VerifyResult.of(VerifyResult.Kind.UNKEYED, lines, 1, "not keyed: none of its " + lines + " entries is"
        + " authenticated by " + ChainKey.VARIABLE + " (written before the key was set, or rewritten without it);"
        + " the next append with the key adopts it with a " + MARKER + " entry");
  }

  /** Whether an append with {@code key} must first write the {@value #MARKER} entry. */
  boolean needsMarker(ChainKey key, long lines, LedgerEntry next) {
    return key != null && lines > 0 && !lastKeyed && !MARKER.equals(next.eventType());
  }

  /** The entry that adopts the {@code lines} unkeyed entries before it under {@code key}. */
  static LedgerEntry marker(Path ledger, ChainKey key, long lines, String lastHash) {
    return LedgerEntry.builder(MARKER).submissionId(ledger.getFileName().toString()).decision("KEYED")
        .reason("from here on every entry is authenticated with " + ChainKey.ALGORITHM + " (" + ChainKey.VARIABLE
            + ", key id " + key.id() + "); the " + lines + " entries before it were written without a key and are"
            + " covered through this entry's prev_hash")
        .metadata(Json.object().put("unkeyed_entries", lines).put("unkeyed_last_hash", lastHash)
            .put("key_id", key.id()))
        .build();
  }
}
