package cp.gateway;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerException;
import cp.ledger.LedgerStream;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's answers a provider was paid for while the HOT ledger could not record them: an
 * EXCHANGE the ledger refuses is kept in the spool ({@link ExchangeSpool}) before the failure goes
 * on, so no retry pays for it again, and is recorded from there once the ledger takes appends
 * again (at the next call, or when the same call is asked again). Thread-safe as its ledger and
 * spool are.
 */
final class KeptAnswers {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  private final LedgerStream hot;
  private final ExchangeSpool spool;

  KeptAnswers(LedgerStream hot, ExchangeSpool spool) {
    this.hot = hot;
    this.spool = spool;
  }

  /**
   * Writes the EXCHANGE of a paid answer; when the ledger refuses it, keeps the answer in the
   * spool first and then fails as the ledger did.
   */
  String record(LedgerEntry exchange) {
    return append(exchange).entryId();
  }

  /** {@link #record}, saying whether the entry was written (false: its key was in the ledger already). */
  LedgerStream.Appended append(LedgerEntry exchange) {
    try {
      return hot.append(exchange);
    } catch (LedgerException e) {
      if (exchange.idempotencyKey() != null) {
        try {
          spool.keep(exchange, e.getMessage());
          LOG.warn("the provider answered {} but the HOT ledger could not record it; the answer is kept in {} and"
              + " recorded when the ledger is back", exchange.metaText("activity_id"), spool.directory());
        } catch (RuntimeException keepFailed) {
          e.addSuppressed(keepFailed);
          LOG.error("the provider answered {} and neither the HOT ledger nor the spool {} could keep it",
              exchange.metaText("activity_id"), spool.directory(), keepFailed);
        }
      }
      throw e;
    }
  }

  /**
   * The answer kept under {@code key}, recorded now (as a duplicate when another attempt's answer
   * was recorded meanwhile, {@link DuplicateAnswers}); empty when none is kept.
   */
  Optional<DuplicateAnswers.Recorded> recordKept(String key) {
    Optional<LedgerEntry> kept = spool.find(key);
    if (kept.isEmpty()) {
      return Optional.empty();
    }
    DuplicateAnswers.Recorded r = DuplicateAnswers.recorded(hot, kept.get(), hot.append(kept.get()), hot::append);
    spool.forget(key);
    return Optional.of(r);
  }

  /** Writes the answers kept while the ledger was unreachable (it is reachable now); stops at the first refusal. */
  void recordPending() {
    for (LedgerEntry kept : spool.pending()) {
      try {
        String id = DuplicateAnswers.recorded(hot, kept, hot.append(kept), hot::append).entryId();
        spool.forget(kept.idempotencyKey());
        LOG.info("answer {} kept while the ledger was unreachable is recorded now as {}", kept.idempotencyKey(), id);
      } catch (LedgerException e) {
        LOG.warn("answers kept in {} stay there for now: {}", spool.directory(), e.getMessage());
        return;
      }
    }
  }
}
