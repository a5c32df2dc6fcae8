package cp.cli;

import cp.model.CostSummary;
import cp.model.TurnResult;
import java.io.PrintStream;
import java.util.Locale;

/** How a turn's result is shown: the reply, then a one-line footer. */
final class TurnPrinter {
  private TurnPrinter() {}

  static void print(PrintStream out, TurnResult r) {
    out.println(r.response());
    out.println(footer(r));
  }

  /**
   * The turn's cost: dollars, or that it is unknown when its model has no price (never a $0.0000 that
   * reads as free); a turn with priced and unpriced calls shows the priced part and the unpriced count.
   */
  static String cost(CostSummary c) {
    Integer unpriced = c.unpricedCalls();
    return cost(c.cost(), unpriced == null ? 0 : unpriced, unpriced != null && unpriced >= c.llmCalls());
  }

  /**
   * {@code usd} as dollars; with {@code unpriced} calls whose model has no price, the dollars and their
   * count, or, when {@code allUnpriced} (no call had a price), that the cost is unknown. The one wording
   * the chat/turn footer and {@code cpctl show} share.
   */
  static String cost(double usd, int unpriced, boolean allUnpriced) {
    String dollars = String.format(Locale.ROOT, "$%.4f", usd);
    if (unpriced <= 0) {
      return dollars;
    }
    if (allUnpriced) {
      return "cost unknown (model has no price)";
    }
    return dollars + " + " + unpriced + " unpriced call" + (unpriced == 1 ? "" : "s");
  }

  /** outcome · tokens in/out · cost · WOs · tool calls (· gate failed / error code). */
  static String footer(TurnResult r) {
    CostSummary c = r.costSummary();
    StringBuilder sb = new StringBuilder("  [");
    sb.append(r.outcome());
    if (c != null) {
      sb.append(" · tokens ").append(c.inputTokens()).append(" in / ").append(c.outputTokens()).append(" out");
      sb.append(" · ").append(cost(c));
    }
    sb.append(" · WOs ").append(r.woChainSummary().size());
    sb.append(" · tool calls ").append(r.toolCalls().size());
    if (c != null) {
      sb.append(" · session ").append(c.sessionTokensUsed()).append(" used / ").append(c.sessionTokensRemaining())
          .append(" left");
    }
    if (!r.qualityGatePassed() && "success".equals(r.outcome())) {
      sb.append(" · gate not passed");
    }
    if (r.errorCode() != null) {
      sb.append(" · ").append(r.errorCode());
    }
    return sb.append(']').toString();
  }
}
