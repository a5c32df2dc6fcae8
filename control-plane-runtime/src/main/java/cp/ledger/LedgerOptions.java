package cp.ledger;

import java.time.Duration;
import java.util.Objects;

/**
 * How one ledger is opened.
 *
 * @param durability when appends are forced to disk
 * @param batchInterval the flush period under {@link Durability#BATCHED}
 * @param key the chain key ({@code CP_LEDGER_HMAC_KEY}), or null for an unkeyed SHA-256 chain
 * @param hooks the store's collaborators (metrics, fault points, write checks); {@link LedgerHooks#NONE} when null
 */
public record LedgerOptions(Durability durability, Duration batchInterval, ChainKey key, LedgerHooks hooks) {
  /** Long enough to group a turn's writes, short enough to bound a power-loss window. */
  public static final Duration DEFAULT_BATCH_INTERVAL = Duration.ofMillis(50);

  public LedgerOptions {
    Objects.requireNonNull(durability, "durability");
    batchInterval = batchInterval == null ? DEFAULT_BATCH_INTERVAL : batchInterval;
    if (batchInterval.isNegative() || batchInterval.isZero()) {
      throw new IllegalArgumentException("batch interval must be positive, was " + batchInterval);
    }
    hooks = hooks == null ? LedgerHooks.NONE : hooks;
  }

  public LedgerOptions(Durability durability, Duration batchInterval, ChainKey key) {
    this(durability, batchInterval, key, LedgerHooks.NONE);
  }

  public LedgerOptions(Durability durability, Duration batchInterval) {
    this(durability, batchInterval, null, LedgerHooks.NONE);
  }

  public static LedgerOptions of(Durability durability) {
    return new LedgerOptions(durability, DEFAULT_BATCH_INTERVAL);
  }

  /** The same options with a chain key (null: unkeyed). */
  public LedgerOptions withKey(ChainKey chainKey) {
    return new LedgerOptions(durability, batchInterval, chainKey, hooks);
  }

  /** The same options with these collaborators. */
  public LedgerOptions withHooks(LedgerHooks h) {
    return new LedgerOptions(durability, batchInterval, key, h);
  }

  /** Hooks are not part of what the options say (a record's toString would print lambdas). */
  @Override
  public String toString() {
    return "LedgerOptions[durability=" + durability + ", batchInterval=" + batchInterval + ", key=" + key + "]";
  }
}
