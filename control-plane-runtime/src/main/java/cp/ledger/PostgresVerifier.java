package cp.ledger;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * Walks one PostgreSQL stream's rows in {@code seq} order with the JSONL store's checks
 * ({@link ChainCodec}, {@link KeyedChain}) and adds the table's own: each row is at the position
 * it claims (a gap is a deleted row, a repeat or jump an inserted one), its indexed columns agree
 * with its body (an UPDATE of either), and the head record counts exactly the rows and ends at the
 * last one's hash (a deleted tail). Reads only.
 *
 * <p>Thread-safety: stateless apart from the stream it names; runs on the caller's connection.
 */
final class PostgresVerifier {
  private final StreamId id;
  private final LedgerOptions options;
  private final PostgresHead head;

  PostgresVerifier(StreamId id, LedgerOptions options, PostgresHead head) {
    this.id = id;
    this.options = options;
    this.head = head;
  }

  VerifyResult verify(Connection c) throws SQLException {
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      PostgresHead.State h = head.read(c);
      KeyedChain keyed = new KeyedChain();
      String lastHash = ChainCodec.GENESIS;
      long n = 0;
      try (PreparedStatement ps = c.prepareStatement("SELECT seq, entry_id, event_type, session_id, work_order_id,"
          + " idempotency_key, prev_hash, hash, body, ts FROM ledger_entry WHERE stream = ? ORDER BY seq")) {
        ps.setFetchSize(PostgresRows.FETCH_ROWS);
        ps.setString(1, id.label());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            n++;
            long seq = rs.getLong(1);
            if (seq != n) {
              return VerifyResult.bad(n - 1, n, "row seq " + seq + " where entry " + n + " belongs: "
                  + (seq > n ? "rows were deleted before it" : "a row was inserted out of order"));
            }
            byte[] body = rs.getString(9).getBytes(StandardCharsets.UTF_8);
            ChainCodec.Checked checked = ChainCodec.check(body, 0, body.length, lastHash, options.key());
            VerifyResult bad = keyed.accept(checked, n);
            if (bad != null) {
              return bad;
            }
            if (!columnsMatch(checked.entry(), rs)) {
              return VerifyResult.bad(n - 1, n, "the row's columns do not match its body (the row was updated outside"
                  + " the ledger)");
            }
            if (checked.hash() != null) {
              lastHash = checked.hash();
            }
            if (n == h.entries && !h.lastHash.equals(lastHash)) {
              return VerifyResult.bad(n - 1, n, "does not match the head record (the stream was rewritten from here)");
            }
          }
        }
      }
      if (h.entries > n) {
        return VerifyResult.bad(n, n + 1, "missing: the head records " + h.entries + " entries but the stream holds "
            + n + " (rows were deleted from the end)");
      }
      if (h.entries < n) {
        return VerifyResult.bad(h.entries, h.entries + 1, "the head records " + h.entries
            + " entries but the stream holds " + n + " (rows were added outside the ledger)");
      }
      VerifyResult keyProblem = keyed.afterScan(options.key(), n);
      if (keyProblem != null) {
        return keyProblem;
      }
      String headMac = head.macProblem(h, h.mac, keyed.anyKeyed());
      if (headMac != null && n > 0) {
        return VerifyResult.bad(n, n + 1, headMac);
      }
      VerifyResult unkeyed = keyed.unkeyedUnderKey(options.key(), n);
      return unkeyed != null ? unkeyed : VerifyResult.ok(n);
    } finally {
      if (auto) {
        // Only a transaction of its own ends here; a caller's (an append's, holding the head lock) goes on.
        c.commit();
        c.setAutoCommit(true);
      }
    }
  }

  private static boolean columnsMatch(LedgerEntry e, ResultSet rs) throws SQLException {
    return Objects.equals(e.entryId(), rs.getString(2)) && Objects.equals(e.eventType(), rs.getString(3))
        && Objects.equals(e.sessionId(), rs.getString(4)) && Objects.equals(e.workOrderId(), rs.getString(5))
        && Objects.equals(e.idempotencyKey(), rs.getString(6)) && Objects.equals(e.prevHash(), rs.getString(7))
        && Objects.equals(e.hash(), rs.getString(8)) && sameInstant(e.timestamp(), rs.getObject(10, OffsetDateTime.class));
  }

  private static boolean sameInstant(String hashed, OffsetDateTime column) {
    try {
      return column != null && hashed != null && Instant.parse(hashed).equals(column.toInstant());
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }
}
