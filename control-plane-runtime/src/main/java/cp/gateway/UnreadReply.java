package cp.gateway;

import cp.model.PromptRequest;
import java.util.Optional;

/**
 * What a call costs whose reply the provider generated and billed but the gateway did not read (a
 * 2xx reply over {@code CP_HTTP_MAX_REPLY_BYTES}, {@link ProviderErrorKind#REPLY_TOO_LARGE}): the
 * provider's usage is unknown, so the call is charged what it reserved, its prompt's conservative
 * estimate plus all of max_tokens at the model's price. Budgets are law: a paid call is always
 * counted, never released as if nothing had been spent.
 *
 * @param inputTokens the prompt's estimate ({@link TokenEstimate#ofPrompt})
 * @param outputTokens all of the request's max_tokens
 * @param costUsd their worst-case cost, empty when the model has no price
 */
record UnreadReply(long inputTokens, long outputTokens, Optional<Double> costUsd) {
  /** The EXCHANGE field that says the cost (and tokens) are the reservation's estimate, not the provider's usage. */
  static final String COST_ESTIMATED = "cost_estimated";
  /** The EXCHANGE field that says why the cost is an estimate. */
  static final String COST_BASIS = "cost_basis";
  static final String BASIS = "the reply was over the size limit and not read, so the provider's usage is unknown:"
      + " charged the call's reservation (prompt estimate + max_tokens at the model's price)";

  /** The charge of a call that failed with {@code e}, or empty when the failure was not billed. */
  static Optional<UnreadReply> of(ProviderException e, PromptRequest r, Optional<Pricing> pricing) {
    if (e.kind() != ProviderErrorKind.REPLY_TOO_LARGE) {
      return Optional.empty();
    }
    long estimate = TokenEstimate.ofPrompt(r);
    long max = Math.max(0, r.maxTokens());
    return Optional.of(new UnreadReply(estimate, max, pricing.map(p -> p.worstCase(estimate, max))));
  }
}
