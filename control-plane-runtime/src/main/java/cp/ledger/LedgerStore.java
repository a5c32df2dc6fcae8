package cp.ledger;

import java.util.List;

/**
 * Where a plane's ledger streams live: {@link JsonlStore} (files under CP_HOME, the default) or
 * {@link PostgresStore} ({@code CP_LEDGER_URL}). Thread safety: every method may be called from
 * any thread; {@link #open} returns one shared stream per name until {@link #close}.
 */
public interface LedgerStore extends AutoCloseable {
  /** The stream (created on first use). */
  LedgerStream open(StreamId id);

  /** Whether the stream exists (holds or held entries), without creating anything. */
  boolean exists(StreamId id);

  /** Every stream of the plane that exists, HOT first, then HO3, HO2 (by agent class), HO1. */
  List<StreamId> streams();

  /**
   * Walks one stream's chain from its first entry and reports the first bad one, without changing
   * anything (a torn tail is reported, not recovered; nothing is opened for writing).
   */
  default VerifyResult verify(StreamId id) {
    return open(id).verify();
  }

  /** The plane-wide check {@code verify} adds to each stream's own (see {@link HeadCheckpoint}). */
  default List<HeadCheckpoint.Finding> crossCheck() {
    return crossCheck(List.of());
  }

  /**
   * Every stream missing, shorter or rewritten compared with a head recorded for it in another
   * stream, or with a head an operator pins ({@code expected}).
   */
  List<HeadCheckpoint.Finding> crossCheck(List<ExpectedHead> expected);

  /** A line saying where the ledgers are (a directory, or a database URL without its password). */
  String describe();

  /** Where a stream lives, for messages, without opening it. */
  String location(StreamId id);

  @Override
  void close();
}
