package cp.gateway;

import cp.ledger.LedgerStream;
import cp.model.PromptRequest;
import cp.model.UsdBudgets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Issue 23: the gateway's steps along a call's fallback chain within one attempt, with the
 * FALLBACK entries that record them: the next model after one that failed (or after a fallback a
 * budget refused), skipping those whose price the call's dollar budget cannot pay.
 */
final class FallbackHops {
  private final LedgerStream hot;
  private final GatewayConfig config;
  private final Function<PromptRequest, String> providerOf;
  private final Function<PromptRequest, String> modelOf;
  private final Function<PromptRequest, Optional<String>> shortfall;

  /**
   * {@code providerOf}/{@code modelOf}: where a request is sent; {@code shortfall}: why its dollar
   * budget cannot pay for a request at its model's price, or empty when it can.
   */
  FallbackHops(LedgerStream hot, GatewayConfig config, Function<PromptRequest, String> providerOf,
      Function<PromptRequest, String> modelOf, Function<PromptRequest, Optional<String>> shortfall) {
    this.hot = hot;
    this.config = config;
    this.providerOf = providerOf;
    this.modelOf = modelOf;
    this.shortfall = shortfall;
  }

  /**
   * The next model of the chain after {@code from} (the model that failed, or a fallback a budget
   * refused), when another model may not fail as {@code failed} did with {@code failure}; models
   * the call's dollar budget cannot pay for are skipped (a FALLBACK entry SKIPPED each, a note in
   * {@code skipped}), the hop is a FALLBACK entry SENT_ON.
   *
   * @throws GatewayException {@code failure}, with the notes of {@code skipped}, when no model is left
   */
  PromptRequest next(PromptRequest from, PromptRequest failed, GatewayException failure, List<String> skipped) {
    FallbackChain.Hop hop = FallbackChain.nextAffordable(from, failure, config.fallback(), config.rateLimitWait(),
        shortfall);
    String failedProvider = providerOf.apply(failed);
    String failedModel = modelOf.apply(failed);
    for (FallbackChain.Skip skip : hop.skipped()) {
      PromptRequest to = skip.request();
      hot.write(FallbackChain.skippedEntry(failed, failedProvider, failedModel, skip, providerOf.apply(to),
          modelOf.apply(to), failure));
      skipped.add(skipNote(to, skip.why()));
    }
    PromptRequest next = hop.next().orElseThrow(() -> FallbackChain.withSkips(failure, skipped));
    // Keyed by the request it leaves (a refused fallback's differs from the failed model's), named by the failed model.
    hot.write(FallbackChain.entry(from, failedProvider, failedModel, next, providerOf.apply(next),
        modelOf.apply(next), failure));
    return next;
  }

  /** What a failure's message says of a fallback passed over because a budget cannot pay for it. */
  String skipNote(PromptRequest skipped, String why) {
    return "fallback " + providerOf.apply(skipped) + "/" + modelOf.apply(skipped) + " skipped for budget: "
        + UsdBudgets.asNote(why);
  }
}
