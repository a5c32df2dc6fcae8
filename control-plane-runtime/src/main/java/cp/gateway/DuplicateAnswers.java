package cp.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.PromptResponse;
import java.util.Optional;

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
   * Records the paid answer {@code exchange}; when another attempt recorded the round's answer first,
   * records it as that answer's duplicate under the key of its own attempt ({@code attemptKey}).
   */
  Recorded record(LedgerEntry exchange, String attemptKey) {
    LedgerStream.Appended a = kept.append(exchange);
    if (a.written() || exchange.idempotencyKey() == null || attemptKey == null) {
      return new Recorded(a.entryId(), Optional.empty());
    }
    LedgerEntry first = hot.byId(a.entryId()).orElseThrow(() -> new IllegalStateException(
        "the ledger " + hot.location() + " names entry " + a.entryId() + " for " + exchange.idempotencyKey()
            + " but cannot read it"));
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
        .idempotencyKey(attemptKey + "/" + OUTCOME).build();
    return new Recorded(kept.append(duplicate).entryId(), Optional.of(first));
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
