package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What someone with write access to the ledger database (psql as the tables' owner or a
 * superuser) can do to it, done the careful way: rows kept consistent with their columns, head rows
 * fixed to match. Triggers are bypassed ({@code session_replication_role = replica}), as a
 * superuser can; a plain writer's UPDATE or DELETE is refused by them ({@code PostgresSchemaTest}).
 */
final class PostgresTamper {
  /** One row as stored. */
  record Row(long seq, String body) {
    ObjectNode node() {
      return (ObjectNode) Json.parse(body);
    }
  }

  private final LedgerDatabase db;

  PostgresTamper(LedgerDatabase db) {
    this.db = db;
  }

  interface Work {
    void run(Connection c) throws SQLException;
  }

  void run(Work w) {
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password())) {
      try (Statement st = c.createStatement()) {
        st.execute("SET session_replication_role = replica");
      }
      w.run(c);
    } catch (SQLException e) {
      throw new IllegalStateException("tampering failed: " + e.getMessage(), e);
    }
  }

  void sql(String... statements) {
    run(c -> {
      try (Statement st = c.createStatement()) {
        for (String s : statements) {
          st.execute(s);
        }
      }
    });
  }

  List<Row> rows(StreamId id) {
    List<Row> out = new ArrayList<>();
    run(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT seq, body FROM ledger_entry WHERE stream = ? ORDER BY seq")) {
        ps.setString(1, id.label());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new Row(rs.getLong(1), rs.getString(2)));
          }
        }
      }
    });
    return out;
  }

  /** Replaces row {@code seq} with {@code node} (body and every column copied from it). */
  void setRow(StreamId id, long seq, ObjectNode node) {
    LedgerEntry e = LedgerEntry.fromJson(node);
    run(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE ledger_entry SET entry_id = ?, event_type = ?, session_id = ?,"
          + " work_order_id = ?, idempotency_key = ?, prev_hash = ?, hash = ?, body = ? WHERE stream = ? AND seq = ?")) {
        ps.setString(1, e.entryId());
        ps.setString(2, e.eventType());
        ps.setString(3, e.sessionId());
        ps.setString(4, e.workOrderId());
        ps.setString(5, e.idempotencyKey());
        ps.setString(6, e.prevHash());
        ps.setString(7, e.hash());
        ps.setString(8, Json.write(node));
        ps.setString(9, id.label());
        ps.setLong(10, seq);
        ps.executeUpdate();
      }
    });
  }

  /** Sets the head row to the rows that remain: their count and the last one's hash. */
  void fixHead(StreamId id) {
    List<Row> rows = rows(id);
    String last = rows.isEmpty() ? ChainCodec.GENESIS : rows.get(rows.size() - 1).node().path("hash").asText();
    run(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE ledger_stream SET entries = ?, last_hash = ? WHERE stream = ?")) {
        ps.setLong(1, rows.size());
        ps.setString(2, last);
        ps.setString(3, id.label());
        ps.executeUpdate();
      }
    });
  }

  void deleteFrom(StreamId id, long seq) {
    sql("DELETE FROM ledger_entry WHERE stream = '" + id.label() + "' AND seq >= " + seq);
  }

  void deleteStream(StreamId id) {
    sql("DELETE FROM ledger_entry WHERE stream = '" + id.label() + "'",
        "DELETE FROM ledger_stream WHERE stream = '" + id.label() + "'");
  }

  /** Edits row {@code n}'s reason and re-hashes it and every row after it with plain SHA-256 (no key). */
  void editAndRehashFrom(StreamId id, long n) {
    List<Row> rows = rows(id);
    String prev = n == 1 ? ChainCodec.GENESIS : rows.get((int) n - 2).node().path("hash").asText();
    for (int i = (int) n - 1; i < rows.size(); i++) {
      ObjectNode node = rows.get(i).node();
      if (i == n - 1) {
        node.put("reason", "forged");
      }
      node.remove("hash");
      node.put("prev_hash", prev);
      prev = ChainCodec.hashOf(node);
      node.put("hash", prev);
      setRow(id, rows.get(i).seq(), node);
    }
  }

  /** Moves rows after {@code seq} up by {@code by} (negative: down), as an insert or delete in the middle would. */
  void renumberAfter(StreamId id, long seq, int by) {
    String s = "'" + id.label() + "'";
    sql("UPDATE ledger_entry SET seq = seq + 1000000 WHERE stream = " + s + " AND seq > " + seq,
        "UPDATE ledger_entry SET seq = seq - 1000000 + (" + by + ") WHERE stream = " + s + " AND seq > 1000000");
  }

  void insertRow(StreamId id, long seq, ObjectNode node) {
    LedgerEntry e = LedgerEntry.fromJson(node);
    run(c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_entry (stream, seq, " + PostgresRows.ENTRY_COLUMNS
          + ") VALUES (?, ?, " + PostgresRows.ENTRY_VALUES + ")")) {
        ps.setString(1, id.label());
        ps.setLong(2, seq);
        PostgresRows.bindEntry(ps, 3, e, Json.write(node));
        ps.executeUpdate();
      }
    });
  }
}
