package cp.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.FallbackModel;
import cp.model.Json;
import cp.model.PromptRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Issue 23: when a call fails in a way another model may not (overloaded, a server error, a
 * timeout, no connection, an open circuit, a rate limit that asks for a longer wait than
 * {@code rateLimitWait}), the gateway sends it on to the next model of its chain within the same
 * activity attempt, translated for that model's provider, with its own price and budget checks;
 * a request error (400, a bad key, content refused, a budget) does not fall back. Each hop is a
 * FALLBACK entry: from what, to what, why.
 */
final class FallbackChain {
  private FallbackChain() {}

  /** The request to send next after {@code failed}, or empty when it does not fall back. */
  static Optional<PromptRequest> next(PromptRequest r, GatewayException failed, List<FallbackModel> defaults,
      Duration rateLimitWait) {
    List<FallbackModel> chain = r.fallback() != null ? r.fallback() : defaults;
    if (chain.isEmpty() || !eligible(failed, rateLimitWait)) {
      return Optional.empty();
    }
    FallbackModel to = chain.get(0);
    return Optional.of(r.toBuilder().provider(to.provider()).model(to.model()).fallback(chain.subList(1, chain.size()))
        .hop((r.hop() == null ? 0 : r.hop()) + 1).build());
  }

  /** A model of the chain passed over because the call's budget cannot pay for it there: its request and why. */
  record Skip(PromptRequest request, String why) {}

  /** Where the chain goes after a failure: the request to send next (empty: none), and the models skipped for budget. */
  record Hop(Optional<PromptRequest> next, List<Skip> skipped) {}

  /**
   * As {@link #next}, passing over each model whose price the call's dollar budget cannot pay
   * ({@code shortfall}: why not, or empty when it can): a dearer fallback the budget cannot pay
   * for is no way out of a passing failure, so the chain goes on to the next model, and with none
   * left the call fails as its own model did (and is retried on it as usual).
   */
  static Hop nextAffordable(PromptRequest r, GatewayException failed, List<FallbackModel> defaults,
      Duration rateLimitWait, java.util.function.Function<PromptRequest, Optional<String>> shortfall) {
    List<Skip> skipped = new java.util.ArrayList<>();
    Optional<PromptRequest> n = next(r, failed, defaults, rateLimitWait);
    while (n.isPresent()) {
      Optional<String> why = shortfall.apply(n.get());
      if (why.isEmpty()) {
        return new Hop(n, skipped);
      }
      skipped.add(new Skip(n.get(), why.get()));
      List<FallbackModel> rest = n.get().fallback();
      n = rest.isEmpty() ? Optional.empty() : Optional.of(n.get().toBuilder().provider(rest.get(0).provider())
          .model(rest.get(0).model()).fallback(rest.subList(1, rest.size())).hop(n.get().hop() + 1).build());
    }
    return new Hop(Optional.empty(), skipped);
  }

  /** The FALLBACK entry of a model of the chain skipped after {@code from} failed, because the budget cannot pay for it. */
  static LedgerEntry skippedEntry(PromptRequest from, String fromProvider, String fromModel, Skip skip,
      String toProvider, String toModel, GatewayException why) {
    LedgerEntry sent = entry(from, fromProvider, fromModel, skip.request(), toProvider, toModel, why);
    ObjectNode m = sent.metadata().deepCopy();
    m.put("skipped", "budget");
    m.put("skip_reason", skip.why());
    return LedgerEntry.builder(EventType.FALLBACK.wire()).submissionId(from.contractId()).decision("SKIPPED")
        .reason(toProvider + "/" + toModel + " skipped after " + fromProvider + "/" + fromModel + " failed ("
            + why.errorCode() + "): the budget cannot pay for it")
        .metadata(m).idempotencyKey(ExchangeRecords.attemptKey(EventType.FALLBACK.wire(), skip.request()) == null ? null
            : ExchangeRecords.attemptKey(EventType.FALLBACK.wire(), skip.request()) + "/skipped").build();
  }

  /** {@code failed} with a note of the fallback models the budget could not pay for, as the call's failure. */
  static GatewayException withSkips(GatewayException failed, List<String> notes) {
    if (notes.isEmpty()) {
      return failed;
    }
    return new GatewayException(failed.code(), failed.retryAfter().orElse(null), failed.entryId(), failed.getMessage()
        + "; " + String.join("; ", notes), failed.attemptLimit());
  }

  static boolean eligible(GatewayException e, Duration rateLimitWait) {
    FailureCode c = e.code();
    if (c == FailureCode.RATE_LIMITED) {
      return e.retryAfter().map(d -> d.compareTo(rateLimitWait) > 0).orElse(true);
    }
    return c == FailureCode.OVERLOADED || c == FailureCode.SERVER_ERROR || c == FailureCode.TIMEOUT
        || c == FailureCode.CONNECTION || c == FailureCode.PROVIDER_UNREACHABLE || c == FailureCode.CIRCUIT_OPEN;
  }

  /** The FALLBACK entry of a hop from {@code from} (provider {@code fromProvider}) to {@code to}. */
  static LedgerEntry entry(PromptRequest from, String fromProvider, String fromModel, PromptRequest to,
      String toProvider, String toModel, GatewayException why) {
    ObjectNode m = Json.object();
    m.put("session_id", from.sessionId());
    m.put("contract_id", from.contractId());
    m.put("from_provider", fromProvider);
    m.put("from_model", fromModel);
    m.put("to_provider", toProvider);
    m.put("to_model", toModel);
    m.put("error_code", why.errorCode());
    if (why.entryId() != null) {
      m.put("failed_exchange_id", why.entryId());
    }
    m.put("hop", to.hop());
    String key = ExchangeRecords.attemptKey(EventType.FALLBACK.wire(), from);
    return LedgerEntry.builder(EventType.FALLBACK.wire()).submissionId(from.contractId()).decision("SENT_ON")
        .reason(fromProvider + "/" + fromModel + " -> " + toProvider + "/" + toModel + ": " + why.errorCode())
        .metadata(m).idempotencyKey(key).build();
  }
}
