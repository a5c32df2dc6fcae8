package cp.ledger;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Durability per tier, from the environment.
 *
 * <p>HOT holds the EXCHANGE records (what the plane paid for) and defaults to an fsync per
 * entry. The other tiers default to batched: a killed process loses nothing either way, and a
 * power loss can drop at most one batch interval of trace entries that Temporal's history
 * can rebuild. {@code CP_LEDGER_DURABILITY} sets every tier; {@code CP_LEDGER_DURABILITY_HOT}
 * (HO1, HO2, HO3) sets one; {@code CP_LEDGER_BATCH_MS} sets the batch interval;
 * {@code CP_LEDGER_HMAC_KEY} keys every tier's chain ({@link ChainKey}); {@code CP_LEDGER_URL} puts the
 * ledgers in PostgreSQL ({@link LedgerDatabase}).
 */
public record LedgerSettings(Map<Tier, LedgerOptions> perTier, LedgerDatabase database) {
  public static final Durability DEFAULT_HOT = Durability.FSYNC_EACH;
  public static final Durability DEFAULT_OTHERS = Durability.BATCHED;

  public LedgerSettings {
    perTier = Map.copyOf(perTier);
  }

  /** JSONL files under the plane root. */
  public LedgerSettings(Map<Tier, LedgerOptions> perTier) {
    this(perTier, null);
  }

  /** The same settings with every tier's chain keyed by {@code key} (null: unkeyed). */
  public LedgerSettings withKey(ChainKey key) {
    Map<Tier, LedgerOptions> m = new EnumMap<>(Tier.class);
    perTier.forEach((t, o) -> m.put(t, o.withKey(key)));
    return new LedgerSettings(m, database);
  }

  /** The same settings with every tier's store given these collaborators ({@link LedgerHooks}). */
  public LedgerSettings withHooks(LedgerHooks hooks) {
    Map<Tier, LedgerOptions> m = new EnumMap<>(Tier.class);
    perTier.forEach((t, o) -> m.put(t, o.withHooks(hooks)));
    return new LedgerSettings(m, database);
  }

  /** The collaborators every tier's ledger is given. */
  public LedgerHooks hooks() {
    return perTier.get(Tier.HOT).hooks();
  }

  /** The same settings with the ledgers in {@code db} (null: JSONL files). */
  public LedgerSettings withDatabase(LedgerDatabase db) {
    return new LedgerSettings(perTier, db);
  }

  public static LedgerSettings defaults() {
    return fromEnv(Map.of());
  }

  /** All tiers with one policy (tests, benchmarks). */
  public static LedgerSettings all(Durability d) {
    Map<Tier, LedgerOptions> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      m.put(t, LedgerOptions.of(d));
    }
    return new LedgerSettings(m);
  }

  /** Reads the CP_LEDGER_* variables; a bad value names the variable. */
  public static LedgerSettings fromEnv(Map<String, String> env) {
    Duration batch = LedgerOptions.DEFAULT_BATCH_INTERVAL;
    String batchMs = env.get("CP_LEDGER_BATCH_MS");
    if (batchMs != null && !batchMs.isBlank()) {
      try {
        batch = Duration.ofMillis(Long.parseLong(batchMs.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("CP_LEDGER_BATCH_MS='" + batchMs + "' is not a number of milliseconds");
      }
    }
    ChainKey key = ChainKey.fromEnv(env).orElse(null);
    Map<Tier, LedgerOptions> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      Durability d = t == Tier.HOT ? DEFAULT_HOT : DEFAULT_OTHERS;
      d = parse(env, "CP_LEDGER_DURABILITY", d);
      d = parse(env, "CP_LEDGER_DURABILITY_" + t.name().toUpperCase(Locale.ROOT), d);
      m.put(t, new LedgerOptions(d, batch, key));
    }
    return new LedgerSettings(m, LedgerDatabase.fromEnv(env).orElse(null));
  }

  private static Durability parse(Map<String, String> env, String var, Durability fallback) {
    String v = env.get(var);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Durability.parse(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(var + ": " + e.getMessage());
    }
  }

  public LedgerOptions options(Tier tier) {
    return perTier.get(tier);
  }

  /** The chain key every tier uses, if {@code CP_LEDGER_HMAC_KEY} is set. */
  public java.util.Optional<ChainKey> key() {
    return java.util.Optional.ofNullable(perTier.get(Tier.HOT).key());
  }
}
