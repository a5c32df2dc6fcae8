package cp.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One ledger stream in PostgreSQL: rows of {@code ledger_entry} ({@link PostgresRows}), its head
 * in {@code ledger_stream} ({@link PostgresHead}). This class is the stream's face and the state
 * its parts share; each job is a part of its own: appends and the group commit
 * ({@link PostgresAppends}), verify ({@link PostgresVerifier}) and repair ({@link PostgresRepair}).
 *
 * <p>Entries are the JSONL store's lines: the same fields, the same canonical JSON and hash
 * ({@link ChainCodec}), the line itself in {@code body}.
 *
 * <p>Thread safety: every method may be called from any thread. The shared state is volatile;
 * it is written under the appends' committer lock (and read without it, as a hint the locked path
 * checks again).
 */
public final class PostgresStream implements LedgerStream {
  /** The store label of the append-latency metric (issue 14). */
  static final String STORE = "postgresql";

  private final PostgresStore store;
  private final StreamId id;
  private final LedgerOptions options;
  private final PostgresHead head;
  private final PostgresAppends appends;
  private final PostgresVerifier verifier;
  private final PostgresRepair repairs;
  /** The chain found broken (appends refused) or null. */
  volatile VerifyResult broken;
  /** The head as this process last committed or read it under the lock; null when unknown. */
  volatile PostgresHead.State cached;
  /** Whether the stream's head row is known to exist (it is created by the first append). */
  volatile boolean created;
  /** Whether this process has verified the whole chain once (before its first append). */
  volatile boolean checkedWhole;

  PostgresStream(PostgresStore store, StreamId id, LedgerOptions options) {
    this.store = store;
    this.id = id;
    this.options = options;
    this.head = new PostgresHead(id, options.key());
    this.appends = new PostgresAppends(this, store, id, options, head);
    this.verifier = new PostgresVerifier(id, options, head);
    this.repairs = new PostgresRepair(this, store, id, head, appends);
  }

  public StreamId id() {
    return id;
  }

  @Override
  public String location() {
    return store.location(id);
  }

  /** The path-like name {@link LedgerProblem} shows ("HOT ledger HOT/ledger/postgresql"). */
  Path problemName() {
    return id.agentClass() == null ? Path.of(id.tier().name(), "ledger", "postgresql")
        : Path.of(id.tier().name(), "ledger", id.agentClass(), "postgresql");
  }

  // ---------------------------------------------------------------- write

  @Override
  public Appended append(LedgerEntry entry) {
    Objects.requireNonNull(entry, "entry");
    // As in the JSONL store: a thread whose interrupt flag is set still writes its entry (Uninterrupted).
    return Uninterrupted.call(() -> {
      long start = System.nanoTime();
      Appended written = appends.append(PostgresHeads.augment(store, id, entry));
      // Committed, not yet acknowledged to the caller (outside the commit lock, so a pause here holds no one up).
      options.hooks().faults().at(LedgerHooks.point(LedgerHooks.LEDGER_WRITTEN, entry.eventType()));
      options.hooks().observer().appended(id.tier().wireName(), STORE, System.nanoTime() - start);
      return written;
    });
  }

  /**
   * The stream's head, locked for the caller's transaction, after the cheap check an append makes
   * (the last row is the head's; verify makes the whole one, and so does this process's first
   * append). The head row is created on first use.
   *
   * @throws LedgerCorruptException when the stream is found broken (appends are refused until a repair)
   */
  PostgresHead.State lockHead(Connection c) throws SQLException {
    if (!created) {
      head.create(c);
    }
    PostgresHead.State h = head.lock(c);
    PostgresHead.LastRow last = head.lastRow(c);
    h.lastKeyed = last.keyed();
    created = true;
    VerifyResult bad = null;
    String macProblem = head.macProblem(h, h.mac, last.keyed());
    if (macProblem != null) {
      bad = VerifyResult.bad(h.entries, h.entries + 1, macProblem);
    } else if (last.seq() != h.entries || !last.hash().equals(h.lastHash)) {
      long good = Math.min(last.seq(), h.entries);
      bad = VerifyResult.bad(good, good + 1, "the head record (" + h.entries + " entries, hash "
          + PostgresHead.abbrev(h.lastHash) + ") does not match the last row (seq " + last.seq() + ", hash "
          + PostgresHead.abbrev(last.hash()) + "): rows were deleted, added or changed outside the ledger");
    } else if (broken != null || !checkedWhole) {
      // The first append of this process checks the whole chain, as the JSONL store does when it opens
      // a file; a chain found broken stays refused until a repair (checked by a whole verify again).
      VerifyResult again = verifier.verify(c);
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

  /**
   * Copies entries written elsewhere (a JSONL ledger) into this stream keeping their ids, times and
   * hashes ({@link PostgresAppends#importEntries}). Returns how many entries were copied.
   *
   * @throws LedgerException when an entry does not continue the stream's chain (nothing of the batch is written)
   */
  public long importEntries(List<LedgerEntry> entries) {
    return appends.importEntries(entries);
  }

  // ---------------------------------------------------------------- read

  @Override
  public List<LedgerEntry> query(LedgerQuery q) {
    boolean last = q.limit() > 0;
    List<LedgerEntry> out = new ArrayList<>();
    store.query("read stream " + id.label(), c -> {
      PostgresRows.visit(c, id, q, last, out::add);
      return null;
    });
    if (last) {
      Collections.reverse(out);
    }
    return out;
  }

  @Override
  public void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
    store.query("read stream " + id.label(), c -> {
      PostgresRows.visit(c, id, q, true, visitor);
      return null;
    });
  }

  @Override
  public Optional<LedgerEntry> byId(String entryId) {
    if (entryId == null) {
      return Optional.empty();
    }
    String clean = StoredText.clean(entryId);
    return store.query("read stream " + id.label(), c -> PostgresRows.byId(c, id, clean));
  }

  @Override
  public Optional<String> idForKey(String idempotencyKey) {
    if (idempotencyKey == null) {
      return Optional.empty();
    }
    String clean = StoredText.clean(idempotencyKey);
    return store.query("read stream " + id.label(), c -> Optional.ofNullable(PostgresRows.idForKey(c, id, clean)));
  }

  /** A transaction commits whole or not at all: no write tears here. */
  @Override
  public Optional<LedgerEntry> tornAttempt(String idempotencyKey) {
    return Optional.empty();
  }

  @Override
  public long size() {
    return store.query("count stream " + id.label(), c -> PostgresRows.count(c, id));
  }

  // ---------------------------------------------------------------- verify / repair

  @Override
  public VerifyResult verify() {
    return store.query("verify stream " + id.label(), verifier::verify);
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

  /**
   * The cheap check before a paid call: a broken chain as {@link #appendProblem()} finds it, a
   * database that does not answer within {@link LedgerProblem#PROBE_TIMEOUT} as
   * {@link LedgerProblem.Kind#UNREACHABLE}; never throws for a lost database.
   */
  @Override
  public Optional<LedgerProblem> writable() {
    Optional<String> down = store.unreachable();
    if (down.isPresent()) {
      return Optional.of(new LedgerProblem(LedgerProblem.Kind.UNREACHABLE, problemName(), down.get()));
    }
    try {
      if (broken != null || !checkedWhole) {
        return appendProblem();
      }
      return Optional.empty();
    } catch (LedgerException e) {
      return Optional.of(new LedgerProblem(LedgerProblem.Kind.UNREACHABLE, problemName(),
          PostgresStore.rootMessage(e)));
    }
  }

  @Override
  public Optional<String> repair() {
    return repairs.repair();
  }

  /** Every committed row is durable in PostgreSQL (synchronous commit): nothing to force. */
  @Override
  public void flush() {}

  /** The store owns the connections; closing a stream releases nothing. */
  @Override
  public void close() {}
}
