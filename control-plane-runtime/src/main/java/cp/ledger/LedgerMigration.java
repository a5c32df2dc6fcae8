package cp.ledger;

import java.util.Locale;
import java.util.Map;

/**
 * What a process does with the ledger schema when it opens the PostgreSQL store
 * ({@code CP_LEDGER_MIGRATE}, {@link LedgerSchema}). Thread-safety: an enum.
 */
public enum LedgerMigration {
  /** Apply pending migrations, one process at a time (the default). */
  AUTO,
  /** Apply nothing; refuse to start while a migration is pending or the applied ones differ. */
  VALIDATE,
  /** Trust the schema as it is. */
  OFF;

  public static final String VARIABLE = "CP_LEDGER_MIGRATE";

  /** The mode {@code env} names; {@link #AUTO} when unset. A bad value names the variable. */
  public static LedgerMigration fromEnv(Map<String, String> env) {
    String v = env.get(VARIABLE);
    if (v == null || v.isBlank()) {
      return AUTO;
    }
    try {
      return valueOf(v.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(VARIABLE + "='" + v + "' is not a migration mode (known: auto, validate, off)");
    }
  }
}
