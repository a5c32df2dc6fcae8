package cp.ledger;

import cp.model.Json;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How both stores name a new entry: from its idempotency key when it has one, else at random.
 * Thread-safety: stateless.
 */
final class EntryIds {
  private EntryIds() {}

  /** {@code LED-} and 16 hex digits: a hash of the key (a retry names the same entry), or 64 random bits. */
  static String newId(String idempotencyKey) {
    if (idempotencyKey != null) {
      return "LED-" + Json.sha256(idempotencyKey).substring(0, 16);
    }
    return "LED-" + String.format("%016x", ThreadLocalRandom.current().nextLong());
  }
}
