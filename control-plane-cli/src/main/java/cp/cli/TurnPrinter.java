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

  /** outcome · tokens in/out · cost · WOs · tool calls (· gate failed / error code). */
  static String footer(TurnResult r) {
    CostSummary c = r.costSummary();
    StringBuilder sb = new StringBuilder("  [");
    sb.append(r.outcome());
    if (c != null) {
      sb.append(" · tokens ").append(c.inputTokens()).append(" in / ").append(c.outputTokens()).append(" out");
      sb.append(" · ").append(String.format(Locale.ROOT, "$%.4f", c.cost()));
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
