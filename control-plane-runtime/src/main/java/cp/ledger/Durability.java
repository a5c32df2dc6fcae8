package cp.ledger;

import java.util.Locale;

/**
 * When a ledger forces its appends to stable storage.
 *
 * <p>None of the three loses an entry when a process is killed: the operating system keeps the
 * written bytes. They differ on power loss or a kernel crash.
 */
public enum Durability {
  /** {@code write} returns after the entry is on disk (concurrent writers share one fsync). */
  FSYNC_EACH,
  /** A background flush every batch interval; a power loss can drop the last interval. */
  BATCHED,
  /** The operating system decides when to flush. */
  NONE;

  public static Durability parse(String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    return switch (v) {
      case "fsync", "fsync_each", "each" -> FSYNC_EACH;
      case "batched", "batch", "group" -> BATCHED;
      case "none", "off" -> NONE;
      default -> throw new IllegalArgumentException(
          "unknown ledger durability '" + value + "' (use fsync, batched or none)");
    };
  }
}
