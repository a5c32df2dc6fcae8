package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.EventType;
import cp.model.Json;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The explicit repair of one PostgreSQL stream ({@code cpctl ledger repair}): moves every row from
 * the first bad one on to {@code ledger_quarantine} (nothing is deleted without a copy), moves the
 * head back to the last good row, and appends LEDGER_REPAIRED saying what was moved. Its
 * transaction is the one the append-only triggers let through ({@code SET LOCAL cp.ledger_repair}).
 *
 * <p>Thread-safety: holds the stream's committer lock for the whole repair, and the head row's
 * lock inside its transaction, so no append of this or another process interleaves.
 */
final class PostgresRepair {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStream.class);

  private final PostgresStream stream;
  private final PostgresStore store;
  private final StreamId id;
  private final PostgresHead head;
  private final PostgresAppends appends;

  PostgresRepair(PostgresStream stream, PostgresStore store, StreamId id, PostgresHead head, PostgresAppends appends) {
    this.stream = stream;
    this.store = store;
    this.id = id;
    this.head = head;
    this.appends = appends;
  }

  Optional<String> repair() {
    appends.committer.lock();
    try {
      VerifyResult bad = stream.verify();
      if (bad.ok() || bad.kind() == VerifyResult.Kind.UNKEYED) {
        return Optional.empty();
      }
      if (bad.keyProblem()) {
        throw new LedgerException("cannot repair " + stream.location() + ": " + bad.reason() + "; nothing was changed");
      }
      long keep = bad.firstBadLine() - 1;
      long[] moved = new long[1];
      stream.cached = null;
      long repairId = store.query("repair stream " + id.label(), c -> {
        c.setAutoCommit(false);
        try {
          head.lock(c);
          try (PreparedStatement ps = c.prepareStatement("SET LOCAL cp.ledger_repair = 'on'")) {
            // The append-only triggers (V2) let this transaction, and only it, move rows aside and the head back.
            ps.execute();
          }
          long rid;
          try (PreparedStatement ps = c.prepareStatement("SELECT nextval('ledger_repair_id')");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            rid = rs.getLong(1);
          }
          try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_quarantine (repair_id, stream, seq, body)"
              + " SELECT ?, stream, seq, body FROM ledger_entry WHERE stream = ? AND seq > ?")) {
            ps.setLong(1, rid);
            ps.setString(2, id.label());
            ps.setLong(3, keep);
            moved[0] = ps.executeUpdate();
          }
          try (PreparedStatement ps = c.prepareStatement("DELETE FROM ledger_entry WHERE stream = ? AND seq > ?")) {
            ps.setString(1, id.label());
            ps.setLong(2, keep);
            ps.executeUpdate();
          }
          PostgresHead.State kept = new PostgresHead.State();
          kept.entries = keep;
          kept.lastHash = ChainCodec.GENESIS;
          try (PreparedStatement ps = c.prepareStatement("SELECT hash FROM ledger_entry WHERE stream = ? AND seq = ?")) {
            ps.setString(1, id.label());
            ps.setLong(2, keep);
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                kept.lastHash = rs.getString(1);
              }
            }
          }
          head.move(c, kept);
          c.commit();
          return rid;
        } catch (SQLException | RuntimeException e) {
          PostgresAppends.rollback(c);
          throw e;
        } finally {
          c.setAutoCommit(true);
        }
      });
      stream.broken = null;
      String where = "ledger_quarantine repair_id " + repairId + " (" + moved[0] + " rows)";
      ObjectNode meta = Json.object().put(LedgerKeys.FIRST_BAD_LINE, bad.firstBadLine())
          .put(LedgerKeys.PROBLEM, bad.reason()).put("quarantined_rows", moved[0]).put(LedgerKeys.QUARANTINE, where);
      stream.write(LedgerEntry.builder(EventType.LEDGER_REPAIRED.wire()).submissionId(id.label()).decision("REPAIRED")
          .reason("chain broken at entry " + bad.firstBadLine() + ": " + bad.reason()).metadata(meta).build());
      LOG.warn("ledger {}: repaired; entries from {} moved to {}", stream.location(), bad.firstBadLine(), where);
      return Optional.of(where);
    } finally {
      appends.committer.unlock();
    }
  }
}
