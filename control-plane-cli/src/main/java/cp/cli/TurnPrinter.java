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
    String usd = String.format(Locale.ROOT, "$%.4f", c.cost());
    Integer unpriced = c.unpricedCalls();
    if (unpriced == null || unpriced <= 0) {
      return usd;
    }
    if (unpriced >= c.llmCalls()) {
      return "cost unknown (model has no price)";
    }
    return usd + " + " + unpriced + " unpriced call" + (unpriced == 1 ? "" : "s");
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
