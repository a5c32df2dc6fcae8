package cp.ledger;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One ledger stream (a tier, and for HO2 an agent class): the API the gateway, the activities, the
 * tools, attention and the CLI use, whatever store holds it ({@link Ledger}: a JSONL file under
 * CP_HOME; {@link PostgresStream}: rows of a PostgreSQL database, {@code CP_LEDGER_URL}).
 *
 * <p>Guarantees of every implementation: entries form one SHA-256 (or HMAC-SHA256, {@link ChainKey})
 * hash chain over the same canonical JSON ({@link ChainCodec}), so the same entries hash the same in
 * either store; a write whose {@code idempotency_key} is already in the stream writes nothing and
 * returns the first entry's id; a stream whose chain is found broken refuses appends until
 * {@link #repair()}; reads return entries in chain order.
 *
 * <p>Thread safety: every method may be called from any thread at any time; appends from several
 * threads, processes (and, for PostgreSQL, hosts) to one stream are serialised into one chain.
 */
public interface LedgerStream extends AutoCloseable {
  /** Where the stream lives, for messages: a file path, or the database and stream name (never a password). */
  String location();

  /**
   * What an append did.
   *
   * @param entryId the entry's id (the first entry's when its idempotency key was in the stream already)
   * @param hash the entry's chain hash, or null when the entry was there already (then {@link #hashOf} reads it)
   */
  record Appended(String entryId, String hash) {
    /** Whether the entry was written by this append (false: its idempotency key was in the stream already). */
    public boolean written() {
      return hash != null;
    }
  }

  /**
   * Appends an entry and says what was written; an entry whose idempotency key is already in the
   * stream is not written again and the existing entry's id is returned.
   *
   * @throws LedgerCorruptException when the chain is broken
   * @throws LedgerException when the store cannot be written (an I/O error, the database is unreachable)
   */
  Appended append(LedgerEntry entry);

  /** {@link #append} for a caller that needs only the entry's id. */
  default String write(LedgerEntry entry) {
    return append(entry).entryId();
  }

  /** Entries matching the query, in chain order. */
  List<LedgerEntry> query(LedgerQuery q);

  /** Visits the entries matching the query newest first, until {@code visitor} returns false. */
  void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor);

  Optional<LedgerEntry> byId(String entryId);

  /** The id already written under an idempotency key, if any. */
  Optional<String> idForKey(String idempotencyKey);

  /**
   * The entry recovered from a torn write of the entry keyed {@code idempotencyKey} ({@link TornTail}):
   * proof that its work was done once already (an LLM call paid for, a tool that ran) although the
   * entry itself was lost. Empty when there was none (always, for a store whose writes cannot tear).
   */
  default Optional<LedgerEntry> tornAttempt(String idempotencyKey) {
    return idempotencyKey == null ? Optional.empty() : idForKey(TornTail.keyFor(idempotencyKey)).flatMap(this::byId);
  }

  /** The chain hash of entry {@code entryId} (what a trace span carries, issue 14), if the stream has it. */
  default Optional<String> hashOf(String entryId) {
    return byId(entryId).map(LedgerEntry::hash);
  }

  /** Number of entries (for a file: lines, including bad ones). */
  long size();

  /**
   * The 1-based line (row) of an entry in its stream, when the stream knows it without reading the
   * entries again (a stream opened read-only); empty otherwise, or when the entry is not there.
   */
  default Optional<Long> lineOf(String entryId) {
    return Optional.empty();
  }

  /** Walks the whole chain from its first entry and reports the first bad one, if any. */
  VerifyResult verify();

  /** Whether the chain is known to be broken (writes are refused). */
  Optional<VerifyResult> brokenChain();

  /**
   * Why an append would be refused now (a broken chain, a full disk, a file that refuses writes),
   * found without writing; empty when an append can go ahead.
   */
  Optional<LedgerProblem> appendProblem();

  /**
   * The cheap check a caller makes before it does something that must be recorded (the gateway,
   * before it pays for a call): empty when an append could go ahead now, otherwise why not, found
   * without writing and within about {@link LedgerProblem#PROBE_TIMEOUT}. Unlike {@link
   * #appendProblem()} it never throws for a store it cannot reach: a database that does not answer
   * is {@link LedgerProblem.Kind#UNREACHABLE} (transient, worth a retry; the problem is logged once
   * until the store answers again).
   */
  default Optional<LedgerProblem> writable() {
    return appendProblem();
  }

  /**
   * Explicit repair of a broken chain: moves every entry from the first bad one on aside (nothing is
   * deleted) and appends a LEDGER_REPAIRED entry. Returns where the moved entries are kept, or empty
   * when the chain was intact.
   */
  Optional<String> repair();

  /** Forces written entries to durable storage now, whatever the durability policy. */
  void flush();

  /** Releases this reference. */
  @Override
  void close();

  default List<LedgerEntry> readAll() {
    return query(LedgerQuery.ALL);
  }

  default List<LedgerEntry> byEventType(String eventType) {
    return query(LedgerQuery.eventType(eventType));
  }

  default List<LedgerEntry> bySession(String sessionId) {
    return query(LedgerQuery.session(sessionId));
  }

  default List<LedgerEntry> byWorkOrder(String woId) {
    return query(LedgerQuery.workOrder(woId));
  }

  default List<LedgerEntry> lastN(int n) {
    return query(LedgerQuery.last(n));
  }
}
