package cp.workflows;

import cp.model.CostSummary;
import cp.model.LlmRoundResult;
import cp.model.TurnResult;
import cp.model.WoCost;
import java.util.List;

/**
 * The turn results the session makes itself (degraded, unavailable, past the deadline) rather
 * than its turn workflow. From {@link SessionVersions#ROUND2_SESSION} 1 on they report what the
 * failed turn and the degraded call spent, tokens and cost, as the ledger holds them; before, the
 * failed turn's tokens only in the total and no cost.
 */
final class SessionResults {
  private final String sessionId;
  private final boolean round2;

  SessionResults(String sessionId, boolean round2) {
    this.sessionId = sessionId;
    this.round2 = round2;
  }

  /**
   * @param failedTurn what the failed (or cancelled) turn spent, from its EXCHANGE records
   * @param degraded the degraded call's exchange, or null when there was none
   */
  TurnResult costed(int n, String text, String outcome, String errorCode, WoCost failedTurn,
      LlmRoundResult.Exchange degraded) {
    List<String> ids = degraded == null ? List.of() : List.of(degraded.entryId());
    if (!round2) {
      return simple(n, text, outcome, errorCode, failedTurn.totalTokens(),
          degraded == null ? 0 : degraded.inputTokens(), degraded == null ? 0 : degraded.outputTokens(), ids);
    }
    WoCost total = degraded == null ? failedTurn
        : failedTurn.plus(WoCost.llmCall(degraded.inputTokens(), degraded.outputTokens(), degraded.cost()));
    return new TurnResult(text, outcome, sessionId, n, false, List.of(), CostSummary.of(total, 0, 0), List.of(), ids,
        null, errorCode);
  }

  private TurnResult simple(int n, String text, String outcome, String errorCode, long alreadySpent, long in,
      long out, List<String> exchangeIds) {
    long total = alreadySpent + in + out;
    CostSummary c = new CostSummary(in, out, total, exchangeIds.size(), 0, 0.0, 0, 0);
    return new TurnResult(text, outcome, sessionId, n, false, List.of(), c, List.of(), exchangeIds, null, errorCode);
  }
}
