package cp.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The ledgers of one plane: opens each stream on first use and closes them together, in the store
 * the settings choose ({@link LedgerSettings#database()}: PostgreSQL when {@code CP_LEDGER_URL} is
 * set, else JSONL files under the plane root).
 *
 * <p>Agent classes share code but not memory (the factory pattern): each class gets its own HO2
 * stream.
 */
public final class Ledgers implements AutoCloseable {
  private final PlaneLayout layout;
  private final LedgerStore store;

  public Ledgers(PlaneLayout layout, LedgerSettings settings) {
    this(layout, storeFor(Objects.requireNonNull(layout, "layout"), Objects.requireNonNull(settings, "settings")));
  }

  /**
   * The ledgers {@code settings} choose, every entry's secrets masked by {@code masker} before it
   * is appended ({@link MaskingLedgerStore}): what a worker writes through.
   */
  public Ledgers(PlaneLayout layout, LedgerSettings settings, cp.observability.SecretMasker masker) {
    this(layout, new MaskingLedgerStore(storeFor(Objects.requireNonNull(layout, "layout"),
        Objects.requireNonNull(settings, "settings")), masker));
  }

  public Ledgers(PlaneLayout layout, LedgerStore store) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * The ledgers of a command that only reads ({@code ledger query}, {@code show}, {@code sessions},
   * {@code spend}, {@code eval freeze|verify}): nothing is created, recovered or rewritten. JSONL
   * streams open read-only ({@link JsonlStore#readOnly}; {@code warnings} gets one line per stream
   * whose incomplete final line was skipped). PostgreSQL applies no migration: a schema that needs one
   * is refused as {@code CP_LEDGER_MIGRATE=validate} refuses it ({@code off} stays off).
   */
  public static Ledgers readOnly(PlaneLayout layout, LedgerSettings settings, java.util.function.Consumer<String> warnings) {
    LedgerDatabase db = settings.database();
    if (db == null) {
      return new Ledgers(layout, JsonlStore.readOnly(layout, settings, warnings));
    }
    if (db.migration() != LedgerMigration.AUTO) {
      return new Ledgers(layout, PostgresStore.open(db, settings));
    }
    try {
      return new Ledgers(layout, PostgresStore.open(db.withMigration(LedgerMigration.VALIDATE), settings));
    } catch (LedgerStoreUnavailableException e) {
      if (e.getCause() != null) {
        throw e;
      }
      // Not reachability: the schema needs a migration, which a reader does not apply.
      throw new LedgerStoreUnavailableException(e.getMessage() + " (a command that only reads applies no migration;"
          + " a worker, chat or 'cpctl ledger verify' with " + LedgerMigration.VARIABLE + "=auto applies them)", e);
    }
  }

  private static LedgerStore storeFor(PlaneLayout layout, LedgerSettings settings) {
    return settings.database() == null ? new JsonlStore(layout, settings)
        : PostgresStore.open(settings.database(), settings);
  }

  public static Ledgers open(java.nio.file.Path root) {
    return new Ledgers(new PlaneLayout(root), LedgerSettings.defaults());
  }

  public PlaneLayout layout() {
    return layout;
  }

  public LedgerStore store() {
    return store;
  }

  public LedgerStream hot() {
    return get(Tier.HOT, null);
  }

  public LedgerStream ho1() {
    return get(Tier.HO1, null);
  }

  public LedgerStream ho3() {
    return get(Tier.HO3, null);
  }

  public LedgerStream ho2(String agentClass) {
    return get(Tier.HO2, agentClass);
  }

  /** The ledger of a tier (created on first use); HO2 needs the agent class. */
  public LedgerStream get(Tier tier, String agentClass) {
    return store.open(new StreamId(tier, agentClass));
  }

  /** The ledger if it exists, without creating anything. */
  public Optional<LedgerStream> existing(Tier tier, String agentClass) {
    StreamId id = new StreamId(tier, agentClass);
    return store.exists(id) ? Optional.of(store.open(id)) : Optional.empty();
  }

  /** Every ledger of the plane, opened. */
  public List<Map.Entry<StreamId, LedgerStream>> all() {
    List<Map.Entry<StreamId, LedgerStream>> out = new ArrayList<>();
    for (StreamId id : store.streams()) {
      out.add(Map.entry(id, store.open(id)));
    }
    return out;
  }

  /**
   * The plane-wide check {@code verify} adds to each ledger's own: every ledger that is missing,
   * shorter, or rewritten compared with a head recorded for it in another ledger ({@link HeadCheckpoint}).
   */
  public List<HeadCheckpoint.Finding> crossCheck() {
    return store.crossCheck();
  }

  /** {@link #crossCheck()} with heads an operator pins ({@code --expect-head}). */
  public List<HeadCheckpoint.Finding> crossCheck(List<ExpectedHead> expected) {
    return store.crossCheck(expected);
  }

  @Override
  public void close() {
    store.close();
  }
}
