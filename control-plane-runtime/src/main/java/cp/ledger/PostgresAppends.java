package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append path of one PostgreSQL stream. A lone append is one statement (a compare-and-set of
 * the head, the idempotency key and the row together); when another writer got there first, or
 * several appends are queued, a transaction locks the head row ({@link PostgresHead}) and appends
 * them all: the group commit (what this process's threads append while a commit is in flight goes
 * into the next one; each caller returns once the transaction holding its entry committed). Also
 * the copy of entries written elsewhere ({@link #importEntries}).
 *
 * <p>Thread-safety: safe for any number of threads; {@link #committer} serialises this process's
 * transactions on the stream, the head row's lock serialises them with every other process's.
 */
final class PostgresAppends {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStream.class);

  /** The one statement of {@link #fastAppend}: the key looked up, the head moved on only if it is still ours, the row. */
  private static final String FAST_APPEND = "WITH k AS (SELECT entry_id FROM ledger_entry WHERE stream = ? AND"
      + " idempotency_key = ?), h AS (UPDATE ledger_stream SET entries = ?, last_hash = ?, head_mac = ?, updated_at = now()"
      + " WHERE stream = ? AND entries = ? AND last_hash = ? AND NOT EXISTS (SELECT 1 FROM k) RETURNING stream),"
      + " i AS (INSERT INTO ledger_entry (stream, seq, " + PostgresRows.ENTRY_COLUMNS + ") SELECT stream, ?, "
      + PostgresRows.ENTRY_VALUES + " FROM h RETURNING entry_id)"
      + " SELECT (SELECT entry_id FROM k), (SELECT entry_id FROM i)";

  private final PostgresStream stream;
  private final PostgresStore store;
  private final StreamId id;
  private final LedgerOptions options;
  private final PostgresHead head;
  /** Whoever holds it writes every queued append in one transaction (the group commit). */
  final ReentrantLock committer = new ReentrantLock();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();

  PostgresAppends(PostgresStream stream, PostgresStore store, StreamId id, LedgerOptions options, PostgresHead head) {
    this.stream = stream;
    this.store = store;
    this.id = id;
    this.options = options;
    this.head = head;
  }

  private static final class Pending {
    final LedgerEntry entry;
    LedgerStream.Appended done;
    RuntimeException failure;
    boolean finished;

    Pending(LedgerEntry entry) {
      this.entry = entry;
    }
  }

  /** Appends {@code entry} in this or another thread's transaction; returns once it committed. */
  LedgerStream.Appended append(LedgerEntry entry) {
    Pending p = new Pending(entry);
    synchronized (queue) {
      queue.add(p);
    }
    committer.lock();
    try {
      if (!p.finished) {
        List<Pending> batch;
        synchronized (queue) {
          batch = new ArrayList<>(queue);
          queue.clear();
        }
        commit(batch);
      }
    } finally {
      committer.unlock();
    }
    if (p.failure != null) {
      throw p.failure;
    }
    return p.done;
  }

  /** Writes {@code batch} in one transaction; every entry ends finished, with its result or the failure. */
  private void commit(List<Pending> batch) {
    if (batch.size() == 1 && fastAppend(batch.get(0))) {
      return;
    }
    try (Connection c = store.dataSource(options.durability()).getConnection()) {
      c.setAutoCommit(false);
      try {
        PostgresHead.State h = stream.lockHead(c);
        Map<String, String> keysInBatch = new HashMap<>();
        for (Pending p : batch) {
          try {
            p.done = appendLocked(c, h, p.entry, keysInBatch);
          } catch (LedgerException e) {
            p.failure = e;
          }
        }
        head.move(c, h);
        c.commit();
        stream.cached = h;
        store.reachable();
      } catch (SQLException | RuntimeException e) {
        rollback(c);
        throw e;
      }
    } catch (SQLException e) {
      stream.cached = null;
      fail(batch, store.failed("append to stream " + id.label(), e));
      return;
    } catch (LedgerException e) {
      stream.cached = null;
      fail(batch, e);
      return;
    }
    for (Pending p : batch) {
      p.finished = true;
    }
  }

  /**
   * A lone append (nothing else queued) in one statement and one round trip, against the head this
   * process last wrote or read: the head row moves on only if it still holds that head (a
   * compare-and-set; another writer's append in between makes it change nothing) and only if the
   * key is not in the stream. Returns false, having written nothing, when the head is unknown or
   * was moved by someone else, or the stream needs more than a plain append (a first check, a
   * broken chain, a LEDGER_KEYED marker, an explicit entry id): then the locking transaction runs.
   */
  private boolean fastAppend(Pending p) {
    PostgresHead.State h = stream.cached;
    LedgerEntry entry = p.entry;
    ChainKey chainKey = options.key();
    if (h == null || !stream.checkedWhole || stream.broken != null || entry.entryId() != null
        || (chainKey != null && h.entries > 0 && !h.lastKeyed)) {
      return false;
    }
    String key = entry.idempotencyKey();
    String entryId = EntryIds.newId(key);
    ObjectNode node = entry.toAppendJson(entryId, timestampOf(entry), h.lastHash, chainKey);
    String hash = ChainCodec.hashOf(node, chainKey);
    node.put("hash", hash);
    LedgerEntry e = LedgerEntry.fromJson(node);
    try (Connection c = store.dataSource(options.durability()).getConnection();
        PreparedStatement ps = c.prepareStatement(FAST_APPEND)) {
      int i = 1;
      ps.setString(i++, id.label());
      ps.setString(i++, key);
      ps.setLong(i++, h.entries + 1);
      ps.setString(i++, hash);
      ps.setString(i++, head.mac(h.entries + 1, hash));
      ps.setString(i++, id.label());
      ps.setLong(i++, h.entries);
      ps.setString(i++, h.lastHash);
      ps.setLong(i++, h.entries + 1);
      PostgresRows.bindEntry(ps, i, e, Json.write(node));
      String existing;
      String inserted;
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        existing = rs.getString(1);
        inserted = rs.getString(2);
      }
      store.reachable();
      if (existing != null) {
        p.done = new LedgerStream.Appended(existing, null);
      } else if (inserted != null) {
        PostgresHead.State next = new PostgresHead.State();
        next.entries = h.entries + 1;
        next.lastHash = hash;
        next.lastKeyed = chainKey != null;
        stream.cached = next;
        p.done = new LedgerStream.Appended(inserted, hash);
      } else {
        stream.cached = null; // another writer moved the head: the locking transaction reads it
        return false;
      }
      p.finished = true;
      return true;
    } catch (SQLException ex) {
      stream.cached = null;
      p.failure = store.failed("append to stream " + id.label(), ex);
      p.finished = true;
      return true;
    }
  }

  /** The entry's time: its own (an ISO-8601 instant, as the column needs) or now. */
  private String timestampOf(LedgerEntry entry) {
    if (entry.timestamp() == null) {
      return store.clock().instant().truncatedTo(ChronoUnit.MICROS).toString();
    }
    try {
      java.time.Instant.parse(entry.timestamp());
    } catch (java.time.format.DateTimeParseException e) {
      throw new LedgerException("entry timestamp '" + entry.timestamp() + "' is not an ISO-8601 instant"
          + " (e.g. 2026-11-23T10:00:00.123456Z); nothing was written");
    }
    return entry.timestamp();
  }

  private static void fail(List<Pending> batch, RuntimeException e) {
    for (Pending p : batch) {
      p.done = null;
      p.failure = e;
      p.finished = true;
    }
  }

  static void rollback(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is gone: the transaction is rolled back with it
    }
  }

  /** Appends one entry under the locked head {@code h}; the first entry's id for a known key. */
  LedgerStream.Appended appendLocked(Connection c, PostgresHead.State h, LedgerEntry entry,
      Map<String, String> keysInBatch) throws SQLException {
    String key = entry.idempotencyKey();
    if (key != null && keysInBatch.containsKey(key)) {
      return new LedgerStream.Appended(keysInBatch.get(key), null);
    }
    ChainKey chainKey = options.key();
    if (chainKey != null && h.entries > 0 && !h.lastKeyed && !KeyedChain.MARKER.equals(entry.eventType())) {
      appendLocked(c, h, KeyedChain.marker(Path.of(id.label()), chainKey, h.entries, h.lastHash), keysInBatch);
      LOG.warn("ledger {}: keyed from entry {} on ({} key id {})", stream.location(), h.entries, ChainKey.VARIABLE,
          chainKey.id());
    }
    String entryId = entry.entryId();
    if (entryId != null && PostgresRows.byId(c, id, entryId).isPresent()) {
      throw new LedgerException("ledger " + stream.location() + " already holds entry_id " + entryId
          + "; entry ids are unique");
    }
    if (entryId == null) {
      // Unique by construction (a hash of the key, or 64 random bits); the unique constraint backs it up.
      entryId = EntryIds.newId(key);
    }
    ObjectNode node = entry.toAppendJson(entryId, timestampOf(entry), h.lastHash, chainKey);
    String hash = ChainCodec.hashOf(node, chainKey);
    node.put("hash", hash);
    if (!PostgresRows.insert(c, id, h.entries + 1, LedgerEntry.fromJson(node), Json.write(node))) {
      // The key is in the stream already (the constraint said so; nothing was written): the first entry's id.
      String known = PostgresRows.idForKey(c, id, key);
      keysInBatch.put(key, known);
      return new LedgerStream.Appended(known, null);
    }
    h.entries++;
    h.lastHash = hash;
    h.lastKeyed = chainKey != null;
    if (key != null) {
      keysInBatch.put(key, entryId);
    }
    return new LedgerStream.Appended(entryId, hash);
  }

  /**
   * Copies entries written elsewhere (a JSONL ledger) into this stream keeping their ids, times and
   * hashes: an entry whose id is already here is skipped when its hash agrees (so a second copy
   * copies nothing), every other one must link to the stream's head and carry a hash the chain
   * code accepts. Returns how many entries were copied.
   *
   * @throws LedgerException when an entry does not continue the stream's chain (nothing of the batch is written)
   */
  long importEntries(List<LedgerEntry> entries) {
    committer.lock();
    stream.cached = null;
    try (Connection c = store.dataSource(Durability.FSYNC_EACH).getConnection()) {
      c.setAutoCommit(false);
      try {
        PostgresHead.State h = stream.lockHead(c);
        long copied = 0;
        for (LedgerEntry e : entries) {
          Optional<LedgerEntry> there = PostgresRows.byId(c, id, e.entryId());
          if (there.isPresent()) {
            if (!Objects.equals(there.get().hash(), e.hash())) {
              throw new LedgerException("ledger " + stream.location() + " already holds entry " + e.entryId()
                  + " with another hash; the source and the database have diverged, nothing was copied");
            }
            continue;
          }
          String body = Json.write(e.toJson(true));
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          ChainCodec.Checked checked = ChainCodec.check(bytes, 0, bytes.length, h.lastHash, options.key());
          if (checked.outcome() == ChainCodec.Outcome.BAD || checked.outcome() == ChainCodec.Outcome.WRONG_KEY) {
            throw new LedgerException("entry " + e.entryId() + " does not continue stream " + id.label() + " at entry "
                + (h.entries + 1) + ": " + checked.error() + "; nothing was copied");
          }
          if (!PostgresRows.insert(c, id, h.entries + 1, e, body)) {
            throw new LedgerException("ledger " + stream.location() + " already holds idempotency key "
                + e.idempotencyKey() + " under another entry than " + e.entryId() + "; the source and the database"
                + " have diverged, nothing was copied");
          }
          h.entries++;
          h.lastHash = e.hash();
          copied++;
        }
        head.move(c, h);
        c.commit();
        return copied;
      } catch (SQLException | RuntimeException e) {
        rollback(c);
        throw e;
      }
    } catch (SQLException e) {
      throw store.failed("copy entries into stream " + id.label(), e);
    } finally {
      committer.unlock();
    }
  }
}
