package cp.ledger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import cp.model.RootCause;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.Optional;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledgers of a plane in a PostgreSQL database ({@code CP_LEDGER_URL}), shared by every worker
 * of a deployment on any host: one {@link PostgresStream} per stream, rows in {@code ledger_entry},
 * heads in {@code ledger_stream} (see {@code db/ledger/V1__ledger_streams.sql}). The schema is
 * created and migrated by Flyway when the store opens; connections come from a HikariCP pool.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class PostgresStore implements LedgerStore {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStore.class);
  /**
   * Connections per pool (a process has two: durable and lazy commits): a worker runs a handful of activities at once and each append or read
   * holds one connection for one short transaction; more would only queue inside PostgreSQL.
   */
  static final int POOL_SIZE = 8;
  /**
   * How long an append waits for a connection before it fails: short enough that an activity on a
   * lost database fails (and Temporal retries it) well inside its timeout, long enough to ride out
   * a pool that is momentarily busy.
   */
  static final long CONNECTION_TIMEOUT_MS = 5_000;

  private final LedgerDatabase database;
  private final LedgerSettings settings;
  private final HikariDataSource pool;
  /** Connections that commit without waiting for the WAL flush ({@code synchronous_commit off}). */
  private final HikariDataSource lazyPool;
  private final Clock clock;
  private final Map<StreamId, PostgresStream> open = new ConcurrentHashMap<>();
  /** Whether the loss of the database was reported (so it is said once, and its return once). */
  private final AtomicBoolean lost = new AtomicBoolean();

  private PostgresStore(LedgerDatabase database, LedgerSettings settings, HikariDataSource pool,
      HikariDataSource lazyPool, Clock clock) {
    this.database = database;
    this.settings = settings;
    this.pool = pool;
    this.lazyPool = lazyPool;
    this.clock = clock;
  }

  /**
   * Connects, creates or migrates the schema and returns the store.
   *
   * @throws LedgerException naming the URL (without its password) when the database cannot be reached
   */
  public static PostgresStore open(LedgerDatabase database, LedgerSettings settings) {
    HikariDataSource pool = pool(database, "cp-ledger", null);
    try {
      LedgerSchema.prepare(pool, database.migration(), database.redactedUrl());
    } catch (LedgerStoreUnavailableException e) {
      pool.close();
      throw e;
    } catch (SQLException | RuntimeException e) {
      pool.close();
      throw new LedgerStoreUnavailableException("cannot create or migrate the ledger schema in " + database.redactedUrl() + ": "
          + rootMessage(e), e);
    }
    HikariDataSource lazy;
    try {
      // The tiers whose policy is "batched" or "none" commit without waiting for the WAL flush (see PostgresStream).
      lazy = pool(database, "cp-ledger-lazy", "SET synchronous_commit TO off");
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return new PostgresStore(database, settings, pool, lazy, Clock.systemUTC());
  }

  private static HikariDataSource pool(LedgerDatabase database, String name, String initSql) {
    HikariConfig cfg = new HikariConfig();
    cfg.setJdbcUrl(database.url());
    if (database.user() != null) {
      cfg.setUsername(database.user());
    }
    if (database.password() != null) {
      cfg.setPassword(database.password());
    }
    cfg.setMaximumPoolSize(POOL_SIZE);
    cfg.setMinimumIdle(1);
    cfg.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
    cfg.setPoolName(name);
    cfg.setAutoCommit(true);
    if (initSql != null) {
      cfg.setConnectionInitSql(initSql);
    }
    try {
      return new HikariDataSource(cfg);
    } catch (RuntimeException e) {
      throw new LedgerStoreUnavailableException("cannot reach the ledger database " + database.redactedUrl() + " ("
          + LedgerDatabase.URL_VARIABLE + "): " + rootMessage(e), e);
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = RootCause.innermost(e);
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return LedgerDatabase.redact(m);
  }

  public LedgerDatabase database() {
    return database;
  }

  DataSource dataSource() {
    return pool;
  }

  /** The connections appends of {@code durability} use: durable at commit for fsync, else lazily. */
  DataSource dataSource(Durability durability) {
    return durability == Durability.FSYNC_EACH ? pool : lazyPool;
  }

  Clock clock() {
    return clock;
  }

  @Override
  public PostgresStream open(StreamId id) {
    return open.computeIfAbsent(id, k -> new PostgresStream(this, k, settings.options(k.tier())));
  }

  @Override
  public boolean exists(StreamId id) {
    return query("find stream " + id.label(), c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM ledger_stream WHERE stream = ?")) {
        ps.setString(1, id.label());
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next();
        }
      }
    });
  }

  @Override
  public List<StreamId> streams() {
    List<StreamId> out = query("list streams", c -> {
      List<StreamId> ids = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT stream FROM ledger_stream");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(StreamId.parse(rs.getString(1)));
        }
      }
      return ids;
    });
    List<Tier> order = List.of(Tier.HOT, Tier.HO3, Tier.HO2, Tier.HO1);
    out.sort(Comparator.comparingInt((StreamId s) -> order.indexOf(s.tier()))
        .thenComparing(s -> s.agentClass() == null ? "" : s.agentClass()));
    return out;
  }

  /** The heads the streams record of each other, and those pinned, against the rows ({@link PostgresHeads}). */
  @Override
  public List<HeadCheckpoint.Finding> crossCheck(List<ExpectedHead> expected) {
    return PostgresHeads.crossCheck(this, expected);
  }

  @Override
  public String describe() {
    return "PostgreSQL " + database.redactedUrl();
  }

  @Override
  public String location(StreamId id) {
    return "stream " + id.label() + " in " + database.redactedUrl();
  }

  /** Work on one pooled connection. */
  interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs {@code work} on a pooled connection; a failure is a {@link LedgerException} naming the database. */
  <T> T query(String action, SqlWork<T> work) {
    try (Connection c = pool.getConnection()) {
      T result = work.run(c);
      reachable();
      return result;
    } catch (SQLException e) {
      throw failed(action, e);
    }
  }

  /** The exception for a failed database operation; logs the loss of the database once. */
  LedgerException failed(String action, SQLException e) {
    String why = rootMessage(e);
    String message = "cannot " + action + " in the ledger database " + database.redactedUrl() + ": " + why;
    if (isConnectionProblem(e)) {
      if (lost.compareAndSet(false, true)) {
        LOG.error("the ledger database {} is unreachable ({}): ledger reads and writes fail, and Temporal retries"
            + " the activities that need them until it is back", database.redactedUrl(), why);
      }
      return new LedgerUnreachableException(message, e);
    }
    return new LedgerException(message, e);
  }

  /**
   * Whether the database answers now, within {@link LedgerProblem#PROBE_TIMEOUT}: empty when it
   * does, else why not (without a password). While the database is known to be lost a fresh
   * connection is tried outside the pool (whose wait for a connection is longer); otherwise a
   * pooled connection is validated. Logs the loss and the return once each, like every other call.
   */
  Optional<String> unreachable() {
    int seconds = (int) Math.max(1, LedgerProblem.PROBE_TIMEOUT.toSeconds());
    try {
      if (lost.get()) {
        PGSimpleDataSource direct = new PGSimpleDataSource();
        direct.setURL(database.url());
        if (database.user() != null) {
          direct.setUser(database.user());
        }
        if (database.password() != null) {
          direct.setPassword(database.password());
        }
        direct.setConnectTimeout(seconds);
        direct.setSocketTimeout(seconds);
        direct.setLoginTimeout(seconds);
        try (Connection c = direct.getConnection()) {
          if (!c.isValid(seconds)) {
            throw new SQLException("the connection does not answer", "08006");
          }
        }
      } else {
        try (Connection c = pool.getConnection()) {
          if (!c.isValid(seconds)) {
            throw new SQLException("the connection does not answer", "08006");
          }
        }
      }
      reachable();
      return Optional.empty();
    } catch (SQLException e) {
      failed("reach the database", e);
      return Optional.of(rootMessage(e));
    }
  }

  void reachable() {
    if (lost.compareAndSet(true, false)) {
      LOG.warn("the ledger database {} is reachable again", database.redactedUrl());
    }
  }

  static boolean isConnectionProblem(SQLException e) {
    return RootCause.chain(e).anyMatch(t -> (t instanceof SQLException s && s.getSQLState() != null
        && (s.getSQLState().startsWith("08") || s.getSQLState().startsWith("57P")))
        || t instanceof java.sql.SQLTransientConnectionException || t instanceof java.net.ConnectException);
  }

  @Override
  public void close() {
    open.clear();
    pool.close();
    lazyPool.close();
  }
}
