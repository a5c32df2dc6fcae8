package cp.gateway;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import cp.ledger.LedgerDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Tenant counters in the ledger's PostgreSQL database, shared by workers on any host (issue 23).
 * A reservation is one transaction: lock the tenant's row ({@code SELECT … FOR UPDATE}, so
 * reservations of one tenant are decided one after the other, on any host), find the call's own
 * reservation (a retry reuses it), sum what the day and month have spent and hold unexpired, and
 * insert the reservation only when it fits. Settling sets the call's actual cost; a trigger adds it
 * to the tenant's day row ({@code cp_tenant_days}), which is what a reservation sums as spent, so a
 * reservation reads at most a month of day rows and the calls in flight. Its own schema history ({@code cp_spend_schema_history}, migrations {@code db/spend}), apart from the ledger's:
 * {@link SpendSchema}.
 */
public final class PostgresTenantCounters implements TenantCounters {
  /** Two connections: a reservation and a settlement of one worker may overlap; more would only queue on the row lock. */
  private static final int POOL_SIZE = 2;
  /** Connection timeout: a database that does not answer in 5 s fails the call as the ledger would. */
  private static final long CONNECTION_TIMEOUT_MS = 5_000;

  private final HikariDataSource pool;

  private PostgresTenantCounters(HikariDataSource pool) {
    this.pool = pool;
  }

  /**
   * Opens a small pool on {@code db} for a process that writes the counters, and creates, migrates or
   * only checks their tables as {@code CP_LEDGER_MIGRATE} says ({@link SpendSchema#prepare}).
   */
  public static PostgresTenantCounters open(LedgerDatabase db) {
    HikariDataSource pool = pool(db, false);
    try {
      SpendSchema.prepare(pool, db);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return new PostgresTenantCounters(pool);
  }

  /**
   * The counters in {@code db} for a command that only reads ({@code cpctl spend}): read-only
   * connections, no migration; empty when no process ever kept counters there (nothing is held).
   *
   * @throws cp.ledger.LedgerStoreUnavailableException when the counters' schema needs a migration
   */
  public static java.util.Optional<TenantCounters> openReadOnly(LedgerDatabase db) {
    HikariDataSource pool = pool(db, true);
    try {
      if (!SpendSchema.readable(pool, db)) {
        pool.close();
        return java.util.Optional.empty();
      }
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return java.util.Optional.of(new PostgresTenantCounters(pool));
  }

  private static HikariDataSource pool(LedgerDatabase db, boolean readOnly) {
    HikariConfig cfg = new HikariConfig();
    cfg.setJdbcUrl(db.url());
    if (db.user() != null) {
      cfg.setUsername(db.user());
    }
    if (db.password() != null) {
      cfg.setPassword(db.password());
    }
    cfg.setMaximumPoolSize(POOL_SIZE);
    cfg.setMinimumIdle(1);
    cfg.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
    // A reader's connections refuse any write (PostgreSQL read-only transactions), whatever it runs.
    cfg.setReadOnly(readOnly);
    cfg.setPoolName(readOnly ? "cp-tenant-counters-read" : "cp-tenant-counters");
    return new HikariDataSource(cfg);
  }

  @Override
  public Decision reserve(String tenant, TenantCaps.Caps caps, String key, double amount, Instant now,
      Instant expires) {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        Decision d = reserveIn(c, tenant, caps, key, amount, now, expires);
        c.commit();
        return d;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("tenant counters: cannot reserve for " + tenant + ": " + e.getMessage(), e);
    }
  }

  private Decision reserveIn(Connection c, String tenant, TenantCaps.Caps caps, String key, double amount,
      Instant now, Instant expires) throws SQLException {
    lockTenant(c, tenant);
    try (PreparedStatement mine = c.prepareStatement("SELECT 1 FROM cp_tenant_reservations WHERE call_key = ?")) {
      mine.setString(1, key);
      try (ResultSet rs = mine.executeQuery()) {
        if (rs.next()) {
          return Decision.ok();
        }
      }
    }
    Totals t = totalsIn(c, tenant, now);
    Decision d = TenantCounters.decide(caps, amount, t, now);
    if (d.granted()) {
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO cp_tenant_reservations (call_key, tenant, day,"
          + " month, amount, expires_at) VALUES (?, ?, ?, ?, ?, ?)")) {
        ins.setString(1, key);
        ins.setString(2, tenant);
        ins.setString(3, TenantCounters.day(now));
        ins.setString(4, TenantCounters.month(now));
        ins.setDouble(5, amount);
        ins.setTimestamp(6, Timestamp.from(expires));
        ins.executeUpdate();
      }
    }
    return d;
  }

  @Override
  public void settle(String key, double actual) {
    try (Connection c = pool.getConnection();
        PreparedStatement up = c.prepareStatement(
            "UPDATE cp_tenant_reservations SET actual = ? WHERE call_key = ? AND actual IS NULL")) {
      up.setDouble(1, actual);
      up.setString(2, key);
      up.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("tenant counters: cannot settle " + key + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void release(String key) {
    try (Connection c = pool.getConnection();
        PreparedStatement del = c.prepareStatement(
            "DELETE FROM cp_tenant_reservations WHERE call_key = ? AND actual IS NULL")) {
      del.setString(1, key);
      del.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("tenant counters: cannot release " + key + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Totals totals(String tenant, Instant now) {
    try (Connection c = pool.getConnection()) {
      return totalsIn(c, tenant, now);
    } catch (SQLException e) {
      throw new IllegalStateException("tenant counters: cannot read " + tenant + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Rebuilt rebuild(String tenant, java.util.Map<String, Double> spentByDay, Instant now) {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        Rebuilt r = rebuildIn(c, tenant, spentByDay, now);
        c.commit();
        return r;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("tenant counters: cannot rebuild " + tenant + ": " + e.getMessage(), e);
    }
  }

  private Rebuilt rebuildIn(Connection c, String tenant, java.util.Map<String, Double> spentByDay, Instant now)
      throws SQLException {
    lockTenant(c, tenant);
    Totals before = totalsIn(c, tenant, now);
    try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM cp_tenant_reservations"
        + " WHERE tenant = ? AND actual IS NULL AND expires_at > ?")) {
      q.setString(1, tenant);
      q.setTimestamp(2, Timestamp.from(now));
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        int inFlight = rs.getInt(1);
        if (inFlight > 0) {
          return new Rebuilt(tenant, before, before, inFlight);
        }
      }
    }
    // The settled rows go, then the day rows (whatever they held); the rebuilt rows' trigger writes them anew.
    for (String sql : new String[] {"DELETE FROM cp_tenant_reservations WHERE tenant = ? AND actual IS NOT NULL",
        "DELETE FROM cp_tenant_days WHERE tenant = ?"}) {
      try (PreparedStatement del = c.prepareStatement(sql)) {
        del.setString(1, tenant);
        del.executeUpdate();
      }
    }
    try (PreparedStatement ins = c.prepareStatement("INSERT INTO cp_tenant_reservations (call_key, tenant, day,"
        + " month, amount, expires_at, actual) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (var e : new java.util.TreeMap<>(spentByDay).entrySet()) {
        ins.setString(1, TenantCounters.rebuiltKey(tenant, e.getKey()));
        ins.setString(2, tenant);
        ins.setString(3, e.getKey());
        ins.setString(4, TenantCounters.monthOf(e.getKey()));
        ins.setDouble(5, e.getValue());
        ins.setTimestamp(6, Timestamp.from(now));
        ins.setDouble(7, e.getValue());
        ins.addBatch();
      }
      ins.executeBatch();
    }
    return new Rebuilt(tenant, before, totalsIn(c, tenant, now), 0);
  }

  @Override
  public java.util.Map<String, Double> heldByTenant(Instant now) {
    try (Connection c = pool.getConnection();
        PreparedStatement q = c.prepareStatement("SELECT tenant, sum(amount) FROM cp_tenant_reservations"
            + " WHERE actual IS NULL AND expires_at > ? GROUP BY tenant")) {
      q.setTimestamp(1, Timestamp.from(now));
      java.util.Map<String, Double> held = new java.util.TreeMap<>();
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) {
          held.put(rs.getString(1), rs.getDouble(2));
        }
      }
      return held;
    } catch (SQLException e) {
      throw new IllegalStateException("tenant counters: cannot read what is held: " + e.getMessage(), e);
    }
  }

  /** Locks {@code tenant}'s row until the transaction ends: its reservations and rebuilds, one after the other. */
  private static void lockTenant(Connection c, String tenant) throws SQLException {
    try (PreparedStatement ins = c.prepareStatement("INSERT INTO cp_tenants (tenant) VALUES (?) ON CONFLICT DO NOTHING")) {
      ins.setString(1, tenant);
      ins.executeUpdate();
    }
    try (PreparedStatement lock = c.prepareStatement("SELECT tenant FROM cp_tenants WHERE tenant = ? FOR UPDATE")) {
      lock.setString(1, tenant);
      lock.executeQuery().close();
    }
  }

  /**
   * Spent from the day rows ({@code cp_tenant_days}, kept by a trigger as calls settle), held from
   * the calls in flight; one statement, so both come from one snapshot (a call settling meanwhile
   * counts once, as held or as spent).
   */
  private static Totals totalsIn(Connection c, String tenant, Instant now) throws SQLException {
    try (PreparedStatement q = c.prepareStatement("SELECT"
        + " coalesce((SELECT spent FROM cp_tenant_days WHERE tenant = ? AND day = ?), 0),"
        + " coalesce((SELECT sum(amount) FROM cp_tenant_reservations WHERE tenant = ? AND month = ? AND day = ?"
        + "   AND actual IS NULL AND expires_at > ?), 0),"
        + " coalesce((SELECT sum(spent) FROM cp_tenant_days WHERE tenant = ? AND month = ?), 0),"
        + " coalesce((SELECT sum(amount) FROM cp_tenant_reservations WHERE tenant = ? AND month = ?"
        + "   AND actual IS NULL AND expires_at > ?), 0)")) {
      String day = TenantCounters.day(now);
      String month = TenantCounters.month(now);
      Timestamp ts = Timestamp.from(now);
      q.setString(1, tenant);
      q.setString(2, day);
      q.setString(3, tenant);
      q.setString(4, month);
      q.setString(5, day);
      q.setTimestamp(6, ts);
      q.setString(7, tenant);
      q.setString(8, month);
      q.setString(9, tenant);
      q.setString(10, month);
      q.setTimestamp(11, ts);
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        return new Totals(rs.getDouble(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4));
      }
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
