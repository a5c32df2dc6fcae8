package cp.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/**
 * The ledger schema in PostgreSQL, versioned by Flyway ({@code db/ledger/V*__*.sql}, history in
 * {@code ledger_schema_history}), and what a process does with it when it opens the store
 * ({@code CP_LEDGER_MIGRATE}):
 * <ul>
 *   <li>{@code auto} (the default): applies pending migrations. Processes opening one database at
 *       once take turns on a PostgreSQL advisory lock, so two never race to create the history
 *       table; a schema that holds other tables but no history yet is baselined once, under the
 *       same lock (never on every open).
 *   <li>{@code validate}: applies nothing and refuses to start when a migration is pending or the
 *       applied ones differ from this build's, naming them (for a DBA who applies migrations).
 *   <li>{@code off}: trusts the schema as it is (no Flyway at all).
 * </ul>
 *
 * <p>Thread-safety: stateless; the advisory lock serialises processes.
 */
final class LedgerSchema {
  static final String VARIABLE = LedgerMigration.VARIABLE;
  /** Flyway migrations of the ledger schema (kept apart from any other schema in the database). */
  static final String MIGRATIONS = "classpath:db/ledger";
  static final String HISTORY_TABLE = "ledger_schema_history";
  /**
   * The advisory lock key every process migrating a ledger schema takes: a constant (the first
   * bytes of "cpledger" as a number), shared by every process that opens the store.
   */
  static final long MIGRATION_LOCK = 0x63706c6564676572L;

  private LedgerSchema() {}

  private static Flyway flyway(DataSource ds) {
    return Flyway.configure().dataSource(ds).locations(MIGRATIONS).table(HISTORY_TABLE).baselineVersion("0")
        .load();
  }

  /**
   * Brings the schema to what this build needs, or checks it, as {@code mode} says.
   *
   * @throws LedgerException naming the pending or differing migrations (validate)
   * @throws SQLException when the database cannot be used
   */
  static void prepare(DataSource ds, LedgerMigration mode, String where) throws SQLException {
    if (mode == LedgerMigration.OFF) {
      return;
    }
    Flyway flyway = flyway(ds);
    if (mode == LedgerMigration.VALIDATE) {
      MigrationInfo[] pending = flyway.info().pending();
      if (pending.length > 0) {
        throw new LedgerStoreUnavailableException("the ledger schema in " + where + " is not up to date: "
            + describe(pending) + " pending; apply them (" + VARIABLE + "=auto once, or Flyway with "
            + MIGRATIONS.replace("classpath:", "") + " from the jar) or start with " + VARIABLE + "=off to trust it"
            + " as it is", null);
      }
      var result = flyway.validateWithResult();
      if (!result.validationSuccessful) {
        throw new LedgerStoreUnavailableException("the ledger schema in " + where + " does not match this build's"
            + " migrations (" + VARIABLE + "=validate): " + result.errorDetails.errorMessage, null);
      }
      return;
    }
    try (Connection c = ds.getConnection()) {
      lock(c, true);
      try {
        if (!historyExists(c) && schemaHasTables(c)) {
          // Another application's tables share the schema: record "version 0" once, then apply every migration.
          flyway.baseline();
        }
        flyway.migrate();
      } finally {
        lock(c, false);
      }
    }
  }

  private static void lock(Connection c, boolean take) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(take ? "SELECT pg_advisory_lock(?)" : "SELECT pg_advisory_unlock(?)")) {
      ps.setLong(1, MIGRATION_LOCK);
      ps.executeQuery().close();
    }
  }

  private static boolean historyExists(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      ps.setString(1, HISTORY_TABLE);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static boolean schemaHasTables(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema())")) {
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static String describe(MigrationInfo[] pending) {
    return Arrays.stream(pending).map(m -> "V" + m.getVersion() + " (" + m.getDescription() + ")")
        .collect(Collectors.joining(", "));
  }
}
