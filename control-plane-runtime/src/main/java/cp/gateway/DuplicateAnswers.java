package cp.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.PromptResponse;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A round answered twice: a retry of an activity ran on another worker (another gateway) while
 * the earlier attempt, cut off from the Temporal service but not from the provider, was still
 * waiting for its answer, and the provider billed both. The round's EXCHANGE is idempotent per
 * activity, so the answer recorded second is written under a key of its own attempt, as an
 * EXCHANGE whose {@code outcome} is {@link #OUTCOME} and whose {@link #FIELD} names the answer
 * recorded first: its tokens and cost count in the ledger's spend (and the turn's, the session
 * history's), not in the conversation. The attempt that recorded it answers with the first answer
 * (the one every later attempt replays, so the turn stays one conversation), carrying its own
 * tokens and cost besides, as a torn attempt's are carried.
 */
final class DuplicateAnswers {
  /** The {@code outcome} of an EXCHANGE recording an answer another attempt's answer to the same round came before. */
  static final String OUTCOME = "duplicate_answer";
  /** The EXCHANGE metadata naming the answer recorded first: {@code entry_id} and {@code attempt}. */
  static final String FIELD = "duplicate_of";

  private final LedgerStream hot;
  private final KeptAnswers kept;

  DuplicateAnswers(LedgerStream hot, KeptAnswers kept) {
    this.hot = hot;
    this.kept = kept;
  }

  /** What recording an answer wrote: its entry id, and the answer recorded first when this one duplicates it. */
  record Recorded(String entryId, Optional<LedgerEntry> first) {}

  /**
   * Records the paid answer {@code exchange} (kept in the spool when the ledger refuses it); when
   * another attempt recorded the round's answer first, records it as that answer's duplicate.
   */
  Recorded record(LedgerEntry exchange) {
    return recorded(hot, exchange, kept.append(exchange), kept::append);
  }

  /** The response to the attempt that recorded {@code r}: its answer, or the first answer with both costs. */
  PromptResponse respond(Recorded r, Long budgetBefore) {
    LedgerEntry own = hot.byId(r.entryId()).orElseThrow(() -> missing(r.entryId(), "the answer just recorded"));
    return r.first().isEmpty() ? ExchangeRecords.replay(own, budgetBefore)
        : answer(r.first().get(), ExchangeRecords.replay(own, null), budgetBefore);
  }

  /**
   * What the append {@code a} of the paid answer {@code exchange} recorded: the answer itself, or,
   * when its key held another attempt's answer already, a duplicate of it written by {@code write}
   * under a key of its own attempt (written once, however often this is asked).
   */
  static Recorded recorded(LedgerStream hot, LedgerEntry exchange, LedgerStream.Appended a,
      Function<LedgerEntry, LedgerStream.Appended> write) {
    if (a.written() || exchange.idempotencyKey() == null) {
      return new Recorded(a.entryId(), Optional.empty());
    }
    LedgerEntry first = hot.byId(a.entryId()).orElseThrow(() -> missing(a.entryId(), exchange.idempotencyKey()));
    String attempt = attemptOf(exchange);
    if (Objects.equals(attempt, attemptOf(first))) {
      return new Recorded(a.entryId(), Optional.empty()); // this very answer, written before (a spool write repeated)
    }
    ObjectNode m = exchange.metadata();
    m.put("outcome", OUTCOME);
    ObjectNode of = m.putObject(FIELD).put("entry_id", first.entryId());
    if (first.meta("attempt") != null) {
      of.put("attempt", first.meta("attempt").asInt());
    }
    String firstAttempt = first.meta("attempt") == null ? "an earlier attempt" : "attempt " + first.meta("attempt");
    LedgerEntry duplicate = exchange.toBuilder().metadata(m).decision("DUPLICATE")
        .reason("the provider answered and billed this attempt too; " + firstAttempt + " of the same call recorded"
            + " its answer first as " + first.entryId())
        .idempotencyKey(exchange.idempotencyKey() + "/attempt-" + attempt + "/" + OUTCOME).build();
    return new Recorded(write.apply(duplicate).entryId(), Optional.of(first));
  }

  /** The {@code attempt} an EXCHANGE records ({@code null} when it has none). */
  private static String attemptOf(LedgerEntry exchange) {
    return exchange.meta("attempt") == null ? null : exchange.meta("attempt").asText();
  }

  private static IllegalStateException missing(String entryId, String what) {
    return new IllegalStateException("the HOT ledger names entry " + entryId + " for " + what + " but cannot read it");
  }

  /**
   * The response of an attempt whose answer ({@code own}) duplicates {@code first}: {@code first}'s
   * answer, with the tokens and cost of both ({@code budgetBefore}: the request's token budget, or null).
   */
  static PromptResponse answer(LedgerEntry first, PromptResponse own, Long budgetBefore) {
    PromptResponse f = ExchangeRecords.replay(first, budgetBefore);
    long in = f.inputTokens() + own.inputTokens();
    long out = f.outputTokens() + own.outputTokens();
    Long left = budgetBefore == null ? null : budgetBefore - in - out;
    return new PromptResponse(f.outcome(), f.content(), in, out, f.modelId(), f.providerId(), f.finishReason(),
        f.latencyMs(), f.timestamp(), f.exchangeEntryId(), f.contextHash(), f.outputValid(),
        f.outputValidationErrors(), null, null, left, true, f.cost() + own.cost(), f.costUnknown() || own.costUnknown(),
        null);
  }
}
