package cp.ledger;

import cp.model.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The rows of {@code ledger_entry}: how an entry becomes a row (its JSON line in {@code body},
 * copies of the indexed fields beside it) and the statements that read rows back by id, key,
 * filter and position.
 *
 * <p>Thread-safety: stateless; every method runs on the caller's connection.
 */
final class PostgresRows {
  /** Rows fetched per round trip by readers that may stop early or read a long stream. */
  static final int FETCH_ROWS = 256;
  /** The columns after {@code stream, seq} of an inserted row, in order. */
  static final String ENTRY_COLUMNS = "entry_id, ts, event_type, session_id, work_order_id, idempotency_key,"
      + " prev_hash, hash, body";

  /** The placeholders of {@link #ENTRY_COLUMNS}, bound by {@link #bindEntry}: the time is cast to timestamptz. */
  static final String ENTRY_VALUES = "?, CAST(? AS timestamptz), ?, ?, ?, ?, ?, ?, ?";

  private PostgresRows() {}

  /** Binds the row's columns after {@code seq} from parameter {@code i} on: 9 parameters. */
  static void bindEntry(PreparedStatement ps, int i, LedgerEntry e, String body) throws SQLException {
    ps.setString(i++, e.entryId());
    ps.setString(i++, e.timestamp());
    ps.setString(i++, e.eventType());
    ps.setString(i++, e.sessionId());
    ps.setString(i++, e.workOrderId());
    ps.setString(i++, e.idempotencyKey());
    ps.setString(i++, e.prevHash());
    ps.setString(i++, e.hash());
    ps.setString(i, body);
  }

  /**
   * Inserts one row; false when its idempotency key is in the stream already (nothing written). The
   * head lock makes the caller the only writer of the stream, so the key check and the insert are one step.
   */
  static boolean insert(Connection c, StreamId id, long seq, LedgerEntry e, String body) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_entry (stream, seq, " + ENTRY_COLUMNS
        + ") VALUES (?, ?, " + ENTRY_VALUES + ") ON CONFLICT (stream, idempotency_key) DO NOTHING")) {
      ps.setString(1, id.label());
      ps.setLong(2, seq);
      bindEntry(ps, 3, e, body);
      return ps.executeUpdate() == 1;
    }
  }

  static LedgerEntry parse(String body) {
    try {
      return LedgerEntry.fromJson(Json.MAPPER.readTree(body));
    } catch (java.io.IOException e) {
      throw new LedgerException("a ledger row is not valid JSON: " + e.getMessage(), e);
    }
  }

  static Optional<LedgerEntry> byId(Connection c, StreamId id, String entryId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT body FROM ledger_entry WHERE stream = ? AND entry_id = ?")) {
      ps.setString(1, id.label());
      ps.setString(2, entryId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(parse(rs.getString(1))) : Optional.empty();
      }
    }
  }

  static String idForKey(Connection c, StreamId id, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT entry_id FROM ledger_entry WHERE stream = ? AND idempotency_key = ?")) {
      ps.setString(1, id.label());
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  static long count(Connection c, StreamId id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ledger_entry WHERE stream = ?")) {
      ps.setString(1, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Visits the rows matching {@code q}, oldest first or newest first, until {@code visitor} returns
   * false; a cursor, so rows come {@link #FETCH_ROWS} at a time.
   */
  static void visit(Connection c, StreamId id, LedgerQuery q, boolean newestFirst, Predicate<LedgerEntry> visitor)
      throws SQLException {
    List<String> params = new ArrayList<>();
    StringBuilder where = new StringBuilder();
    if (q.eventType() != null) {
      where.append(" AND event_type = ?");
      params.add(q.eventType());
    }
    if (q.sessionId() != null) {
      where.append(" AND session_id = ?");
      params.add(q.sessionId());
    }
    if (q.workOrderId() != null) {
      where.append(" AND work_order_id = ?");
      params.add(q.workOrderId());
    }
    String sql = "SELECT body FROM ledger_entry WHERE stream = ?" + where + " ORDER BY seq"
        + (newestFirst ? " DESC" : "") + (q.limit() > 0 ? " LIMIT ?" : "");
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false); // a cursor needs a transaction
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setFetchSize(FETCH_ROWS);
      int i = 1;
      ps.setString(i++, id.label());
      for (String p : params) {
        ps.setString(i++, p);
      }
      if (q.limit() > 0) {
        ps.setInt(i, q.limit());
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (!visitor.test(parse(rs.getString(1)))) {
            break;
          }
        }
      }
    } finally {
      if (auto) {
        // Only a transaction of its own ends here; a caller's (an append's, holding the head lock) goes on.
        c.commit();
        c.setAutoCommit(true);
      }
    }
  }
}
