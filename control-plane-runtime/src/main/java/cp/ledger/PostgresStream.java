package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.faults.FaultPoints;
import cp.model.EventType;
import cp.model.Json;
import cp.observability.Telemetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ledger stream in PostgreSQL: rows of {@code ledger_entry}, its head in {@code ledger_stream}.
 *
 * <p>Appends: a transaction locks the stream's head row ({@code SELECT ... FOR UPDATE}), so appends
 * from any number of processes and hosts form one chain and appends to other streams do not wait.
 * Inside the transaction an idempotency key already in the stream returns the first entry's id and
 * writes nothing (the unique constraint enforces it too). Group commit: appends from this process's
 * threads that arrive while a transaction is in flight are queued and the next transaction writes
 * them all; each caller returns once the transaction holding its entry committed.
 *
 * <p>Entries are the JSONL store's lines: the same fields, the same canonical JSON and hash
 * ({@link ChainCodec}), the line itself in {@code body}.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class PostgresStream implements LedgerStream {
  /** The store label of the append-latency metric (issue 14). */
  static final String STORE = "postgresql";

  private static final Logger LOG = LoggerFactory.getLogger(PostgresStream.class);
  /** Rows fetched per round trip by readers that may stop early or read a long stream. */
  private static final int FETCH_ROWS = 256;

  private final PostgresStore store;
  private final StreamId id;
  private final LedgerOptions options;
  /** Whoever holds it writes every queued append in one transaction (the group commit). */
  private final ReentrantLock committer = new ReentrantLock();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  /** The chain found broken (appends refused) or null. */
  private volatile VerifyResult broken;
  /** The head as this process last committed or read it under the lock; null when unknown. */
  private volatile Head cached;
  /** Whether the stream's head row is known to exist (it is created by the first append). */
  private volatile boolean created;
  /** Whether this process has verified the whole chain once (before its first append). */
  private volatile boolean checkedWhole;

  PostgresStream(PostgresStore store, StreamId id, LedgerOptions options) {
    this.store = store;
    this.id = id;
    this.options = options;
  }

  public StreamId id() {
    return id;
  }

  @Override
  public String location() {
    return store.location(id);
  }

  /** The path-like name {@link LedgerProblem} shows ("HOT ledger HOT/ledger/postgresql"). */
  private Path problemName() {
    return id.agentClass() == null ? Path.of(id.tier().name(), "ledger", "postgresql")
        : Path.of(id.tier().name(), "ledger", id.agentClass(), "postgresql");
  }

  // ---------------------------------------------------------------- write

  private static final class Pending {
    final LedgerEntry entry;
    String id;
    RuntimeException failure;
    boolean done;

    Pending(LedgerEntry entry) {
      this.entry = entry;
    }
  }

  @Override
  public String write(LedgerEntry entry) {
    Objects.requireNonNull(entry, "entry");
    // As in the JSONL store: a thread whose interrupt flag is set (an activity thread of a worker stopped
    // with shutdownNow, chat's Ctrl-C) still writes its entry; the pool would refuse it a connection.
    boolean interrupted = Thread.interrupted();
    long start = System.nanoTime();
    try {
      String written = writeUninterrupted(entry);
      Telemetry.current().metrics().ledgerAppend(id.tier().name().toLowerCase(java.util.Locale.ROOT), STORE, System.nanoTime() - start);
      return written;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private String writeUninterrupted(LedgerEntry entry) {
    Pending p = new Pending(entry);
    synchronized (queue) {
      queue.add(p);
    }
    committer.lock();
    try {
      if (!p.done) {
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
    // Committed, not yet acknowledged to the caller (outside the commit lock, so a pause here holds no one up).
    FaultPoints.at(FaultPoints.of(FaultPoints.LEDGER_WRITTEN, entry.eventType()));
    return p.id;
  }

  /** Writes {@code batch} in one transaction; every entry ends done, with its id or the failure. */
  private void commit(List<Pending> batch) {
    if (batch.size() == 1 && fastAppend(batch.get(0))) {
      return;
    }
    try (Connection c = store.dataSource(options.durability()).getConnection()) {
      c.setAutoCommit(false);
      try {
        Head head = lockHead(c);
        Map<String, String> keysInBatch = new HashMap<>();
        for (Pending p : batch) {
          try {
            p.id = append(c, head, p.entry, keysInBatch);
          } catch (LedgerException e) {
            p.failure = e;
          }
        }
        try (PreparedStatement ps = c.prepareStatement(
            "UPDATE ledger_stream SET entries = ?, last_hash = ?, updated_at = now() WHERE stream = ?")) {
          ps.setLong(1, head.entries);
          ps.setString(2, head.lastHash);
          ps.setString(3, id.label());
          ps.executeUpdate();
        }
        c.commit();
        cached = head;
        store.reachable();
      } catch (SQLException | RuntimeException e) {
        rollback(c);
        throw e;
      }
    } catch (SQLException e) {
      cached = null;
      fail(batch, store.failed("append to stream " + id.label(), e));
      return;
    } catch (LedgerException e) {
      cached = null;
      fail(batch, e);
      return;
    }
    for (Pending p : batch) {
      p.done = true;
    }
  }

  /** The one statement of {@link #fastAppend}: the key looked up, the head moved on only if it is still ours, the row. */
  private static final String FAST_APPEND = "WITH k AS (SELECT entry_id FROM ledger_entry WHERE stream = ? AND"
      + " idempotency_key = ?), h AS (UPDATE ledger_stream SET entries = ?, last_hash = ?, updated_at = now()"
      + " WHERE stream = ? AND entries = ? AND last_hash = ? AND NOT EXISTS (SELECT 1 FROM k) RETURNING stream),"
      + " i AS (INSERT INTO ledger_entry (stream, seq, entry_id, ts, event_type, session_id, work_order_id,"
      + " idempotency_key, prev_hash, hash, body) SELECT stream, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM h RETURNING entry_id)"
      + " SELECT (SELECT entry_id FROM k), (SELECT entry_id FROM i)";

  /**
   * A lone append (nothing else queued) in one statement and one round trip, against the head this
   * process last wrote or read: the head row moves on only if it still holds that head (a
   * compare-and-set; another writer's append in between makes it change nothing) and only if the
   * key is not in the stream. Returns false, having written nothing, when the head is unknown or
   * was moved by someone else, or the stream needs more than a plain append (a first check, a
   * broken chain, a LEDGER_KEYED marker, an explicit entry id): then the locking transaction runs.
   */
  private boolean fastAppend(Pending p) {
    Head h = cached;
    LedgerEntry entry = p.entry;
    ChainKey chainKey = options.key();
    if (h == null || !checkedWhole || broken != null || entry.entryId() != null
        || (chainKey != null && h.entries > 0 && !h.lastKeyed)) {
      return false;
    }
    String key = entry.idempotencyKey();
    String entryId = Ledger.newId(key);
    String timestamp = entry.timestamp() != null ? entry.timestamp()
        : store.clock().instant().truncatedTo(ChronoUnit.MICROS).toString();
    ObjectNode node = entry.toAppendJson(entryId, timestamp, h.lastHash, chainKey);
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
      ps.setString(i++, id.label());
      ps.setLong(i++, h.entries);
      ps.setString(i++, h.lastHash);
      ps.setLong(i++, h.entries + 1);
      ps.setString(i++, entryId);
      ps.setString(i++, timestamp);
      ps.setString(i++, e.eventType());
      ps.setString(i++, e.sessionId());
      ps.setString(i++, e.workOrderId());
      ps.setString(i++, key);
      ps.setString(i++, e.prevHash());
      ps.setString(i++, hash);
      ps.setString(i, Json.write(node));
      String existing;
      String inserted;
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        existing = rs.getString(1);
        inserted = rs.getString(2);
      }
      store.reachable();
      if (existing != null) {
        p.id = existing;
      } else if (inserted != null) {
        Head next = new Head();
        next.entries = h.entries + 1;
        next.lastHash = hash;
        next.lastKeyed = chainKey != null;
        cached = next;
        p.id = inserted;
      } else {
        cached = null; // another writer moved the head: the locking transaction reads it
        return false;
      }
      p.done = true;
      return true;
    } catch (SQLException ex) {
      cached = null;
      p.failure = store.failed("append to stream " + id.label(), ex);
      p.done = true;
      return true;
    }
  }

  private static void fail(List<Pending> batch, RuntimeException e) {
    for (Pending p : batch) {
      p.id = null;
      p.failure = e;
      p.done = true;
    }
  }

  private static void rollback(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is gone: the transaction is rolled back with it
    }
  }

  /** The stream's head, locked for this transaction; the stream row is created on first use. */
  private static final class Head {
    long entries;
    String lastHash;
    boolean lastKeyed;
  }

  private Head lockHead(Connection c) throws SQLException {
    if (!created) {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_stream (stream, tier, agent_class, entries,"
          + " last_hash) VALUES (?, ?, ?, 0, ?) ON CONFLICT (stream) DO NOTHING")) {
        ps.setString(1, id.label());
        ps.setString(2, id.tier().wireName());
        ps.setString(3, id.agentClass());
        ps.setString(4, ChainCodec.GENESIS);
        ps.executeUpdate();
      }
    }
    Head h = new Head();
    // The head, locked. Then, in a statement of its own (so with a snapshot taken after the lock was granted:
    // a join would see the rows as they were before a writer that held the lock committed), the cheap check
    // an append makes (verify makes the whole one): the last row is the head's.
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT entries, last_hash FROM ledger_stream WHERE stream = ? FOR UPDATE")) {
      ps.setString(1, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("the head row of stream " + id.label() + " is missing", "02000");
        }
        h.entries = rs.getLong(1);
        h.lastHash = rs.getString(2);
      }
    }
    long lastSeq = 0;
    String lastRowHash = ChainCodec.GENESIS;
    try (PreparedStatement ps = c.prepareStatement("SELECT seq, hash, position(? in body) > 0 FROM ledger_entry"
        + " WHERE stream = ? ORDER BY seq DESC LIMIT 1")) {
      ps.setString(1, "\"chain\":\"" + ChainKey.ALGORITHM + "\"");
      ps.setString(2, id.label());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          lastSeq = rs.getLong(1);
          lastRowHash = rs.getString(2);
          h.lastKeyed = rs.getBoolean(3);
        }
      }
    }
    created = true;
    VerifyResult bad = null;
    if (lastSeq != h.entries || !lastRowHash.equals(h.lastHash)) {
      bad = VerifyResult.bad(Math.min(lastSeq, h.entries), Math.min(lastSeq, h.entries) + 1, "the head record ("
          + h.entries + " entries, hash " + abbrev(h.lastHash) + ") does not match the last row (seq " + lastSeq
          + ", hash " + abbrev(lastRowHash) + "): rows were deleted, added or changed outside the ledger");
    } else if (broken != null || !checkedWhole) {
      // The first append of this process checks the whole chain, as the JSONL store does when it opens
      // a file; a chain found broken stays refused until a repair (checked by a whole verify again).
      VerifyResult again = verifyOn(c);
      bad = again.ok() || again.kind() == VerifyResult.Kind.UNKEYED ? null : again;
      checkedWhole = bad == null;
    }
    if (bad != null) {
      broken = bad;
      LedgerProblem p = LedgerProblem.corrupt(problemName(), bad);
      LedgerCorruptException refused = new LedgerCorruptException(location(), bad);
      refused.initCause(new LedgerUnwritableException(p, null));
      throw refused;
    }
    broken = null;
    return h;
  }

  private static String abbrev(String hash) {
    return hash == null ? "none" : hash.substring(0, Math.min(HeadCheckpoint.SHOWN_HASH_CHARS, hash.length()));
  }

  /** Appends one entry under the locked head; returns its id (the first entry's for a known key). */
  private String append(Connection c, Head head, LedgerEntry entry, Map<String, String> keysInBatch)
      throws SQLException {
    String key = entry.idempotencyKey();
    if (key != null && keysInBatch.containsKey(key)) {
      return keysInBatch.get(key);
    }
    ChainKey chainKey = options.key();
    if (chainKey != null && head.entries > 0 && !head.lastKeyed && !KeyedChain.MARKER.equals(entry.eventType())) {
      append(c, head, KeyedChain.marker(Path.of(id.label()), chainKey, head.entries, head.lastHash), keysInBatch);
      LOG.warn("ledger {}: keyed from entry {} on ({} key id {})", location(), head.entries, ChainKey.VARIABLE,
          chainKey.id());
    }
    String entryId = entry.entryId();
    if (entryId != null && byIdOn(c, entryId).isPresent()) {
      throw new LedgerException("ledger " + location() + " already holds entry_id " + entryId + "; entry ids are unique");
    }
    if (entryId == null) {
      // Unique by construction (a hash of the key, or 64 random bits); the unique constraint backs it up.
      entryId = Ledger.newId(key);
    }
    String timestamp = entry.timestamp() != null ? entry.timestamp()
        : store.clock().instant().truncatedTo(ChronoUnit.MICROS).toString();
    ObjectNode node = entry.toAppendJson(entryId, timestamp, head.lastHash, chainKey);
    String hash = ChainCodec.hashOf(node, chainKey);
    node.put("hash", hash);
    if (!insert(c, head.entries + 1, LedgerEntry.fromJson(node), Json.write(node))) {
      // The key is in the stream already (the constraint said so; nothing was written): the first entry's id.
      String known = idForKey(c, key);
      keysInBatch.put(key, known);
      return known;
    }
    head.entries++;
    head.lastHash = hash;
    head.lastKeyed = chainKey != null;
    if (key != null) {
      keysInBatch.put(key, entryId);
    }
    return entryId;
  }

  /**
   * Inserts one row; false when its idempotency key is in the stream already (nothing written). The
   * head lock makes this the only writer of the stream, so the key check and the insert are one step.
   */
  private boolean insert(Connection c, long seq, LedgerEntry e, String body) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_entry (stream, seq, entry_id, ts, event_type,"
        + " session_id, work_order_id, idempotency_key, prev_hash, hash, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        + " ON CONFLICT (stream, idempotency_key) DO NOTHING")) {
      ps.setString(1, id.label());
      ps.setLong(2, seq);
      ps.setString(3, e.entryId());
      ps.setString(4, e.timestamp());
      ps.setString(5, e.eventType());
      ps.setString(6, e.sessionId());
      ps.setString(7, e.workOrderId());
      ps.setString(8, e.idempotencyKey());
      ps.setString(9, e.prevHash());
      ps.setString(10, e.hash());
      ps.setString(11, body);
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Copies entries written elsewhere (a JSONL ledger) into this stream keeping their ids, times and
   * hashes: an entry whose id is already here is skipped when its hash agrees (so a second copy
   * copies nothing), every other one must link to the stream's head and carry a hash the chain
   * code accepts. Returns how many entries were copied.
   *
   * @throws LedgerException when an entry does not continue the stream's chain (nothing of the batch is written)
   */
  public long importEntries(List<LedgerEntry> entries) {
    committer.lock();
    cached = null;
    try (Connection c = store.dataSource(Durability.FSYNC_EACH).getConnection()) {
      c.setAutoCommit(false);
      try {
        Head head = lockHead(c);
        long copied = 0;
        for (LedgerEntry e : entries) {
          Optional<LedgerEntry> there = byIdOn(c, e.entryId());
          if (there.isPresent()) {
            if (!Objects.equals(there.get().hash(), e.hash())) {
              throw new LedgerException("ledger " + location() + " already holds entry " + e.entryId()
                  + " with another hash; the source and the database have diverged, nothing was copied");
            }
            continue;
          }
          String body = Json.write(e.toJson(true));
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          ChainCodec.Checked checked = ChainCodec.check(bytes, 0, bytes.length, head.lastHash, options.key());
          if (checked.outcome() == ChainCodec.Outcome.BAD || checked.outcome() == ChainCodec.Outcome.WRONG_KEY) {
            throw new LedgerException("entry " + e.entryId() + " does not continue stream " + id.label() + " at entry "
                + (head.entries + 1) + ": " + checked.error() + "; nothing was copied");
          }
          if (!insert(c, head.entries + 1, e, body)) {
            throw new LedgerException("ledger " + location() + " already holds idempotency key " + e.idempotencyKey()
                + " under another entry than " + e.entryId() + "; the source and the database have diverged, nothing"
                + " was copied");
          }
          head.entries++;
          head.lastHash = e.hash();
          copied++;
        }
        try (PreparedStatement ps = c.prepareStatement(
            "UPDATE ledger_stream SET entries = ?, last_hash = ?, updated_at = now() WHERE stream = ?")) {
          ps.setLong(1, head.entries);
          ps.setString(2, head.lastHash);
          ps.setString(3, id.label());
          ps.executeUpdate();
        }
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

  // ---------------------------------------------------------------- read

  private static LedgerEntry parse(String body) {
    try {
      return LedgerEntry.fromJson(Json.MAPPER.readTree(body));
    } catch (java.io.IOException e) {
      throw new LedgerException("a ledger row is not valid JSON: " + e.getMessage(), e);
    }
  }

  /** The WHERE clause (after {@code stream = ?}) of a query and its parameters. */
  private static String filter(LedgerQuery q, List<String> params) {
    StringBuilder sql = new StringBuilder();
    if (q.eventType() != null) {
      sql.append(" AND event_type = ?");
      params.add(q.eventType());
    }
    if (q.sessionId() != null) {
      sql.append(" AND session_id = ?");
      params.add(q.sessionId());
    }
    if (q.workOrderId() != null) {
      sql.append(" AND work_order_id = ?");
      params.add(q.workOrderId());
    }
    return sql.toString();
  }

  @Override
  public List<LedgerEntry> query(LedgerQuery q) {
    List<String> params = new ArrayList<>();
    String where = filter(q, params);
    boolean last = q.limit() > 0;
    String sql = "SELECT body FROM ledger_entry WHERE stream = ?" + where + " ORDER BY seq" + (last ? " DESC LIMIT ?" : "");
    List<LedgerEntry> out = store.query("read stream " + id.label(), c -> {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setFetchSize(FETCH_ROWS);
        int i = 1;
        ps.setString(i++, id.label());
        for (String p : params) {
          ps.setString(i++, p);
        }
        if (last) {
          ps.setInt(i, q.limit());
        }
        List<LedgerEntry> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(parse(rs.getString(1)));
          }
        }
        return rows;
      } finally {
        c.commit();
        c.setAutoCommit(true);
      }
    });
    if (last) {
      Collections.reverse(out);
    }
    return out;
  }

  @Override
  public void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
    List<String> params = new ArrayList<>();
    String where = filter(q, params);
    String sql = "SELECT body FROM ledger_entry WHERE stream = ?" + where + " ORDER BY seq DESC"
        + (q.limit() > 0 ? " LIMIT ?" : "");
    store.query("read stream " + id.label(), c -> {
      c.setAutoCommit(false); // a cursor: rows come FETCH_ROWS at a time and the visitor may stop early
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
        return null;
      } finally {
        c.commit();
        c.setAutoCommit(true);
      }
    });
  }

  @Override
  public Optional<LedgerEntry> byId(String entryId) {
    return store.query("read stream " + id.label(), c -> byIdOn(c, entryId));
  }

  private Optional<LedgerEntry> byIdOn(Connection c, String entryId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT body FROM ledger_entry WHERE stream = ? AND entry_id = ?")) {
      ps.setString(1, id.label());
      ps.setString(2, entryId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(parse(rs.getString(1))) : Optional.empty();
      }
    }
  }

  @Override
  public Optional<String> idForKey(String idempotencyKey) {
    if (idempotencyKey == null) {
      return Optional.empty();
    }
    return store.query("read stream " + id.label(), c -> Optional.ofNullable(idForKey(c, idempotencyKey)));
  }

  private String idForKey(Connection c, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT entry_id FROM ledger_entry WHERE stream = ? AND idempotency_key = ?")) {
      ps.setString(1, id.label());
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  @Override
  public long size() {
    return store.query("count stream " + id.label(), c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ledger_entry WHERE stream = ?")) {
        ps.setString(1, id.label());
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    });
  }

  // ---------------------------------------------------------------- verify / repair

  @Override
  public VerifyResult verify() {
    return store.query("verify stream " + id.label(), this::verifyOn);
  }

  /**
   * Walks the rows in {@code seq} order with the JSONL store's checks ({@link ChainCodec},
   * {@link KeyedChain}), and adds the table's own: each row is at the position it claims (a gap is
   * a deleted row, a repeat or jump an inserted one), its indexed columns agree with its body (an
   * UPDATE of either), and the head record counts exactly the rows and ends at the last one's hash
   * (a deleted tail).
   */
  private VerifyResult verifyOn(Connection c) throws SQLException {
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      long headEntries = 0;
      String headHash = ChainCodec.GENESIS;
      try (PreparedStatement ps = c.prepareStatement("SELECT entries, last_hash FROM ledger_stream WHERE stream = ?")) {
        ps.setString(1, id.label());
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            headEntries = rs.getLong(1);
            headHash = rs.getString(2);
          }
        }
      }
      KeyedChain keyed = new KeyedChain();
      String lastHash = ChainCodec.GENESIS;
      long n = 0;
      try (PreparedStatement ps = c.prepareStatement("SELECT seq, entry_id, event_type, session_id, work_order_id,"
          + " idempotency_key, prev_hash, hash, body FROM ledger_entry WHERE stream = ? ORDER BY seq")) {
        ps.setFetchSize(FETCH_ROWS);
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
            LedgerEntry e = checked.entry();
            if (!Objects.equals(e.entryId(), rs.getString(2)) || !Objects.equals(e.eventType(), rs.getString(3))
                || !Objects.equals(e.sessionId(), rs.getString(4)) || !Objects.equals(e.workOrderId(), rs.getString(5))
                || !Objects.equals(e.idempotencyKey(), rs.getString(6)) || !Objects.equals(e.prevHash(), rs.getString(7))
                || !Objects.equals(e.hash(), rs.getString(8))) {
              return VerifyResult.bad(n - 1, n, "the row's columns do not match its body (the row was updated outside"
                  + " the ledger)");
            }
            if (checked.hash() != null) {
              lastHash = checked.hash();
            }
            if (n == headEntries && !headHash.equals(lastHash)) {
              return VerifyResult.bad(n - 1, n, "does not match the head record (the stream was rewritten from here)");
            }
          }
        }
      }
      if (headEntries > n) {
        return VerifyResult.bad(n, n + 1, "missing: the head records " + headEntries + " entries but the stream holds "
            + n + " (rows were deleted from the end)");
      }
      if (headEntries < n) {
        return VerifyResult.bad(headEntries, headEntries + 1, "the head records " + headEntries
            + " entries but the stream holds " + n + " (rows were added outside the ledger)");
      }
      VerifyResult keyProblem = keyed.afterScan(options.key(), n);
      if (keyProblem != null) {
        return keyProblem;
      }
      VerifyResult unkeyed = keyed.unkeyedUnderKey(options.key(), n);
      return unkeyed != null ? unkeyed : VerifyResult.ok(n);
    } finally {
      if (auto) {
        c.commit();
        c.setAutoCommit(true);
      }
    }
  }

  @Override
  public Optional<VerifyResult> brokenChain() {
    return Optional.ofNullable(broken);
  }

  @Override
  public Optional<LedgerProblem> appendProblem() {
    if (broken != null || !checkedWhole) {
      VerifyResult now = verify();
      if (now.ok() || now.kind() == VerifyResult.Kind.UNKEYED) {
        broken = null;
        checkedWhole = true;
        return Optional.empty();
      }
      broken = now;
      return Optional.of(LedgerProblem.corrupt(problemName(), now));
    }
    // Reachability: a lost database fails here (a LedgerException), before the gateway pays for a call.
    store.query("reach stream " + id.label(), c -> {
      if (!c.isValid((int) (PostgresStore.CONNECTION_TIMEOUT_MS / 1000))) {
        throw new SQLException("the connection does not answer", "08006");
      }
      return null;
    });
    return Optional.empty();
  }

  @Override
  public Optional<String> repair() {
    committer.lock();
    try {
      VerifyResult bad = verify();
      if (bad.ok() || bad.kind() == VerifyResult.Kind.UNKEYED) {
        return Optional.empty();
      }
      if (bad.keyProblem()) {
        throw new LedgerException("cannot repair " + location() + ": " + bad.reason() + "; nothing was changed");
      }
      long keep = bad.firstBadLine() - 1;
      long[] moved = new long[1];
      cached = null;
      long repairId = store.query("repair stream " + id.label(), c -> {
        c.setAutoCommit(false);
        try {
          try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM ledger_stream WHERE stream = ? FOR UPDATE")) {
            ps.setString(1, id.label());
            ps.executeQuery().close();
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
          String lastHash = ChainCodec.GENESIS;
          try (PreparedStatement ps = c.prepareStatement("SELECT hash FROM ledger_entry WHERE stream = ? AND seq = ?")) {
            ps.setString(1, id.label());
            ps.setLong(2, keep);
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                lastHash = rs.getString(1);
              }
            }
          }
          try (PreparedStatement ps = c.prepareStatement(
              "UPDATE ledger_stream SET entries = ?, last_hash = ?, updated_at = now() WHERE stream = ?")) {
            ps.setLong(1, keep);
            ps.setString(2, lastHash);
            ps.setString(3, id.label());
            ps.executeUpdate();
          }
          c.commit();
          return rid;
        } catch (SQLException | RuntimeException e) {
          rollback(c);
          throw e;
        } finally {
          c.setAutoCommit(true);
        }
      });
      broken = null;
      String where = "ledger_quarantine repair_id " + repairId + " (" + moved[0] + " rows)";
      ObjectNode meta = Json.object().put("first_bad_line", bad.firstBadLine()).put("problem", bad.reason())
          .put("quarantined_rows", moved[0]).put("quarantine", where);
      write(LedgerEntry.builder(EventType.LEDGER_REPAIRED.wire()).submissionId(id.label()).decision("REPAIRED")
          .reason("chain broken at entry " + bad.firstBadLine() + ": " + bad.reason()).metadata(meta).build());
      LOG.warn("ledger {}: repaired; entries from {} moved to {}", location(), bad.firstBadLine(), where);
      return Optional.of(where);
    } finally {
      committer.unlock();
    }
  }

  /** Every committed row is durable in PostgreSQL (synchronous commit): nothing to force. */
  @Override
  public void flush() {}

  /** The store owns the connections; closing a stream releases nothing. */
  @Override
  public void close() {}
}
