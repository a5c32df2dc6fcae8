package cp.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The head row of one PostgreSQL stream ({@code ledger_stream}: how many entries it holds and the
 * hash of the last one): created by the first append, locked by every appending transaction, and
 * moved on by exactly one statement here ({@link #move}) for the locked paths (append, import,
 * repair); the lone append's compare-and-set is the other ({@link PostgresAppends}).
 *
 * <p>Thread-safety: stateless apart from the stream it names; each call runs on the caller's
 * connection and transaction.
 */
final class PostgresHead {
  /** The head as a transaction (or this process's last commit) knows it. Mutable: an appending transaction moves it on. */
  static final class State {
    long entries;
    String lastHash;
    boolean lastKeyed;

    State copy() {
      State s = new State();
      s.entries = entries;
      s.lastHash = lastHash;
      s.lastKeyed = lastKeyed;
      return s;
    }
  }

  /** The last row of a stream as read under the head's lock. */
  record LastRow(long seq, String hash, boolean keyed) {}

  private final StreamId id;

  PostgresHead(StreamId id) {
    this.id = id;
  }

  /** Creates the head row (0 entries, the genesis hash) unless it exists. */
  void create(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_stream (stream, tier, agent_class, entries,"
        + " last_hash) VALUES (?, ?, ?, 0, ?) ON CONFLICT (stream) DO NOTHING")) {
      ps.setString(1, id.label());
      ps.setString(2, id.tier().wireName());
      ps.setString(3, id.agentClass());
      ps.setString(4, ChainCodec.GENESIS);
      ps.executeUpdate();
    }
  }

  /** The head row, locked for this transaction ({@code SELECT ... FOR UPDATE}). */
  State lock(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT entries, last_hash FROM ledger_stream WHERE stream = ? FOR UPDATE")) {
      ps.setString(1, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("the head row of stream " + id.label() + " is missing", "02000");
        }
        State h = new State();
        h.entries = rs.getLong(1);
        h.lastHash = rs.getString(2);
        return h;
      }
    }
  }

  /**
   * The stream's last row, in a statement of its own after the lock was granted (so with a snapshot
   * taken after it: a join would see the rows as they were before a writer that held the lock committed).
   */
  LastRow lastRow(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT seq, hash, position(? in body) > 0 FROM ledger_entry"
        + " WHERE stream = ? ORDER BY seq DESC LIMIT 1")) {
      ps.setString(1, "\"chain\":\"" + ChainKey.ALGORITHM + "\"");
      ps.setString(2, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new LastRow(rs.getLong(1), rs.getString(2), rs.getBoolean(3))
            : new LastRow(0, ChainCodec.GENESIS, false);
      }
    }
  }

  /** Moves the locked head row to {@code h}: the one UPDATE of the head under its lock. */
  void move(Connection c, State h) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "UPDATE ledger_stream SET entries = ?, last_hash = ?, updated_at = now() WHERE stream = ?")) {
      ps.setLong(1, h.entries);
      ps.setString(2, h.lastHash);
      ps.setString(3, id.label());
      ps.executeUpdate();
    }
  }

  /** The head row without a lock: {@code (0, genesis)} when the stream has none. */
  State read(Connection c) throws SQLException {
    State h = new State();
    h.lastHash = ChainCodec.GENESIS;
    try (PreparedStatement ps = c.prepareStatement("SELECT entries, last_hash FROM ledger_stream WHERE stream = ?")) {
      ps.setString(1, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          h.entries = rs.getLong(1);
          h.lastHash = rs.getString(2);
        }
      }
    }
    return h;
  }

  static String abbrev(String hash) {
    return hash == null ? "none" : hash.substring(0, Math.min(HeadCheckpoint.SHOWN_HASH_CHARS, hash.length()));
  }
}
