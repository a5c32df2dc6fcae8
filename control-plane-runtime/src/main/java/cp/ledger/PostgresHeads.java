package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.EventType;
import cp.model.Json;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The heads a plane's PostgreSQL streams record of each other, as the JSONL store's files do
 * ({@link HeadCheckpoint}): HOT's SESSION_START and SESSION_END and HO2's WO_CHAIN_COMPLETE carry
 * {@code metadata.ledger_heads}, the committed head ({@code entries}, {@code hash}) of every other
 * stream of the database, by stream label ({@code ho1}, {@code ho2/ADMIN}). Read from the head
 * rows ({@code ledger_stream}) just before the append, so a head never claims more than was
 * committed; one query on two or three entries per turn.
 *
 * <p>Checking: every recorded head (and every head an operator pins) is compared with the rows
 * of the stream it names, so a stream deleted with its head row, or cut and its head row fixed,
 * is named by the streams that recorded it ({@link HeadClaims}).
 *
 * <p>Thread-safety: stateless; each call runs on a connection of its own.
 */
final class PostgresHeads {
  private PostgresHeads() {}

  /** {@code entry} with the other streams' heads when it is a boundary event; unchanged otherwise. */
  static LedgerEntry augment(PostgresStore store, StreamId self, LedgerEntry entry) {
    if (!HeadCheckpoint.BOUNDARY.contains(entry.eventType())) {
      return entry;
    }
    ObjectNode heads = store.query("read the other streams' heads", c -> {
      ObjectNode out = Json.object();
      try (PreparedStatement ps = c.prepareStatement("SELECT stream, entries, last_hash FROM ledger_stream"
          + " WHERE stream <> ? AND entries > 0 ORDER BY stream")) {
        ps.setString(1, self.label());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.set(rs.getString(1), Json.object().put("entries", rs.getLong(2)).put("hash", rs.getString(3)));
          }
        }
      }
      return out;
    });
    return HeadCheckpoint.withHeads(entry, heads);
  }

  /** Every stream that contradicts a head recorded in another stream or pinned in {@code expected}. */
  static List<HeadCheckpoint.Finding> crossCheck(PostgresStore store, List<ExpectedHead> expected) {
    HeadClaims claims = new HeadClaims();
    store.query("read the recorded heads", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT stream, seq, body FROM ledger_entry WHERE event_type = ANY(?)"
          + " AND (event_type = ? OR position(? in body) > 0) ORDER BY stream, seq")) {
        List<String> types = new ArrayList<>(HeadCheckpoint.BOUNDARY);
        types.add(EventType.LEDGER_REPAIRED.wire());
        ps.setArray(1, c.createArrayOf("text", types.toArray()));
        ps.setString(2, EventType.LEDGER_REPAIRED.wire());
        ps.setString(3, "\"" + HeadCheckpoint.FIELD + "\"");
        ps.setFetchSize(PostgresRows.FETCH_ROWS);
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            String stream = rs.getString(1);
            claims.read(stream, StreamId.parse(stream).tierName(), Json.parse(rs.getString(3)), rs.getLong(2));
          }
        } finally {
          c.commit();
          c.setAutoCommit(auto);
        }
      }
      return null;
    });
    for (ExpectedHead h : expected) {
      claims.expect(h.stream().label(), h.entries(), h.hash(), h.source());
    }
    return claims.check(new RowView(store));
  }

  /** The streams of the database, named by their labels. */
  private record RowView(PostgresStore store) implements HeadClaims.View {
    /** A JSONL path ({@code HO1/ledger/worker.jsonl}, in entries migrated from files) as its stream label. */
    @Override
    public String canonical(String recorded) {
      if (!recorded.endsWith(".jsonl")) {
        return recorded;
      }
      return PlaneLayout.fileOf(java.nio.file.Path.of("/plane").resolve(recorded))
          .map(f -> new StreamId(f.tier(), f.agentClass()).label()).orElse(recorded);
    }

    @Override
    public StreamId id(String name) {
      try {
        return StreamId.parse(name);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }

    @Override
    public String shown(String name) {
      return "stream " + name;
    }

    @Override
    public boolean exists(String name) {
      return store.query("find stream " + name, c -> {
        try (PreparedStatement ps = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM ledger_stream WHERE stream = ?)"
            + " OR EXISTS (SELECT 1 FROM ledger_entry WHERE stream = ?)")) {
          ps.setString(1, name);
          ps.setString(2, name);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getBoolean(1);
          }
        }
      });
    }

    @Override
    public long entries(String name) {
      return store.query("count stream " + name, c -> count(c, name));
    }

    @Override
    public Map<Long, String> hashesAt(String name, Set<Long> lines) {
      return store.query("read stream " + name, c -> {
        Map<Long, String> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, hash FROM ledger_entry WHERE stream = ?"
            + " AND seq = ANY(?)")) {
          ps.setString(1, name);
          Array seqs = c.createArrayOf("bigint", lines.toArray());
          ps.setArray(2, seqs);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              out.put(rs.getLong(1), rs.getString(2));
            }
          }
        }
        return out;
      });
    }

    private static long count(Connection c, String name) throws SQLException {
      try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ledger_entry WHERE stream = ?")) {
        ps.setString(1, name);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    }
  }
}
