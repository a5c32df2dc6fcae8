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
    /** The head row's stored MAC, as read ({@link #read}); not kept up to date by appends. */
    String mac;

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
  /** The chain key: with one, every head row written carries {@code head_mac}; null for an unkeyed store. */
  private final ChainKey key;

  PostgresHead(StreamId id, ChainKey key) {
    this.id = id;
    this.key = key;
  }

  /**
   * The head row's MAC under {@code key}: HMAC-SHA256 over the stream, its length and last hash, so
   * a head row "fixed" to match rows deleted from the end cannot be written without the key.
   */
  static String mac(ChainKey key, StreamId id, long entries, String lastHash) {
    return key == null ? null : key.macHex("ledger_stream\n" + id.label() + "\n" + entries + "\n" + lastHash);
  }

  /** {@link #mac} of this stream under this store's key (null without one). */
  String mac(long entries, String lastHash) {
    return mac(key, id, entries, lastHash);
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
        "SELECT entries, last_hash, head_mac FROM ledger_stream WHERE stream = ? FOR UPDATE")) {
      ps.setString(1, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("the head row of stream " + id.label() + " is missing", "02000");
        }
        State h = new State();
        h.entries = rs.getLong(1);
        h.lastHash = rs.getString(2);
        h.mac = rs.getString(3);
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
        "UPDATE ledger_stream SET entries = ?, last_hash = ?, head_mac = ?, updated_at = now() WHERE stream = ?")) {
      ps.setLong(1, h.entries);
      ps.setString(2, h.lastHash);
      ps.setString(3, mac(h.entries, h.lastHash));
      ps.setString(4, id.label());
      ps.executeUpdate();
    }
  }

  /**
   * With a key, on a stream with keyed entries: why the head row's MAC does not vouch for it
   * (missing, or not its own), or null when it does; always null without a key.
   */
  String macProblem(State h, String storedMac, boolean streamKeyed) {
    // A stream none of whose entries is keyed yet is adopted by its first keyed append (KeyedChain), head and all.
    if (key == null || !streamKeyed || (h.entries == 0 && storedMac == null)) {
      return null;
    }
    if (storedMac == null) {
      return "the head record (" + h.entries + " entries) carries no MAC under " + ChainKey.VARIABLE + " (written"
          + " without the key or before this version, or changed outside the ledger); 'cpctl ledger repair' checks"
          + " the chain and authenticates it";
    }
    if (!storedMac.equals(mac(h.entries, h.lastHash))) {
      return "the head record (" + h.entries + " entries, hash " + abbrev(h.lastHash) + ") does not carry its MAC:"
          + " it was changed outside the ledger (rows deleted from the end and the head fixed?)";
    }
    return null;
  }

  /** The head row without a lock: {@code (0, genesis)} when the stream has none; its MAC in {@link State#mac}. */
  State read(Connection c) throws SQLException {
    State h = new State();
    h.lastHash = ChainCodec.GENESIS;
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT entries, last_hash, head_mac FROM ledger_stream WHERE stream = ?")) {
      ps.setString(1, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          h.entries = rs.getLong(1);
          h.lastHash = rs.getString(2);
          h.mac = rs.getString(3);
        }
      }
    }
    return h;
  }

  static String abbrev(String hash) {
    return hash == null ? "none" : hash.substring(0, Math.min(HeadCheckpoint.SHOWN_HASH_CHARS, hash.length()));
  }
}
