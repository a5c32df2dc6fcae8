package cp.gateway;

import cp.ledger.LedgerDatabase;
import cp.ledger.LedgerMigration;
import cp.ledger.LedgerStoreUnavailableException;
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
 * The tenant counters' schema in the ledger's PostgreSQL database (migrations {@code db/spend}, history
 * {@code cp_spend_schema_history}): migrated by the processes that write the counters, only checked by
 * the commands that read them ({@code cpctl spend}), which never create or change a table.
 *
 * <p>Thread-safety: stateless.
 */
final class SpendSchema {
  static final String MIGRATIONS = "classpath:db/spend";
  static final String HISTORY_TABLE = "cp_spend_schema_history";
  /** The table a reader reads; what {@code CP_LEDGER_MIGRATE=off} trusts to be there. */
  private static final String RESERVATIONS_TABLE = "cp_tenant_reservations";

  private SpendSchema() {}

  private static Flyway flyway(DataSource ds) {
    return Flyway.configure().dataSource(ds).locations(MIGRATIONS).table(HISTORY_TABLE).baselineVersion("0")
        .baselineOnMigrate(true).load();
  }

  /** Creates or migrates the counters' tables (a writer: the worker, {@code cpctl spend --rebuild}). */
  static void migrate(DataSource ds) {
    flyway(ds).migrate();
  }

  /**
   * What a process that writes the counters does with their schema, as {@code CP_LEDGER_MIGRATE}
   * ({@code db.migration()}) says for the ledger's: {@code auto} migrates (Flyway locks the database
   * while it does), {@code validate} applies nothing and refuses a schema that is missing, behind or
   * different, {@code off} trusts it as it is.
   *
   * @throws LedgerStoreUnavailableException under {@code validate}, naming what is pending or differs
   */
  static void prepare(DataSource ds, LedgerDatabase db) {
    switch (db.migration()) {
      case OFF -> { }
      case VALIDATE -> validate(ds, db);
      default -> migrate(ds);
    }
  }

  private static void validate(DataSource ds, LedgerDatabase db) {
    requireCurrent(flyway(ds), db, " (" + LedgerMigration.VARIABLE + "=validate applies nothing: apply them with "
        + LedgerMigration.VARIABLE + "=auto once, or start with " + LedgerMigration.VARIABLE + "=off to trust the"
        + " schema as it is)");
  }

  /** Refuses a schema with a migration pending, or applied ones that differ from this build's; {@code fix} says what to do. */
  private static void requireCurrent(Flyway flyway, LedgerDatabase db, String fix) {
    MigrationInfo[] pending = flyway.info().pending();
    if (pending.length > 0) {
      throw new LedgerStoreUnavailableException("the tenant counters' schema in " + db.redactedUrl()
          + " is not up to date: " + Arrays.stream(pending).map(m -> "V" + m.getVersion() + " (" + m.getDescription()
          + ")").collect(Collectors.joining(", ")) + " pending" + fix, null);
    }
    var result = flyway.validateWithResult();
    if (!result.validationSuccessful) {
      throw new LedgerStoreUnavailableException("the tenant counters' schema in " + db.redactedUrl()
          + " does not match this build's migrations: " + result.errorDetails.errorMessage + fix, null);
    }
  }

  /**
   * Whether a reader finds counters to read in {@code ds}: false when no process ever kept counters
   * there (no history, nor, under {@code CP_LEDGER_MIGRATE=off}, the reservations table): nothing is
   * held. Applies nothing.
   *
   * @throws LedgerStoreUnavailableException when a migration of the counters is pending or the applied
   *     ones differ from this build's (a reader does not apply them)
   */
  static boolean readable(DataSource ds, LedgerDatabase db) {
    try (Connection c = ds.getConnection()) {
      if (db.migration() == LedgerMigration.OFF) {
        return exists(c, RESERVATIONS_TABLE);
      }
      if (!exists(c, HISTORY_TABLE)) {
        return false;
      }
    } catch (SQLException e) {
      throw new LedgerStoreUnavailableException("cannot read the tenant counters in " + db.redactedUrl() + ": "
          + e.getMessage(), e);
    }
    requireCurrent(flyway(ds), db, " (a command that only reads applies no migration; a worker or chat with"
        + " tenant caps, or 'cpctl spend --rebuild', applies them)");
    return true;
  }

  private static boolean exists(Connection c, String table) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }
}
