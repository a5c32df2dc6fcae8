package cp.cli;

import cp.ledger.Ledgers;
import cp.model.Json;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** A session's turns as the ledgers recorded them; needs no Temporal service. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Show a session's turns: input, reply, outcome, WO chain, tokens, cost, degradations, escalations.")
final class ShowCommand extends MaskedCliCommand implements java.util.concurrent.Callable<Integer> {
  /** Replies longer than this are cut in the text view (the JSON view is complete). */
  static final int MAX_SHOWN_CHARS = 600;

  @Parameters(paramLabel = "SESSION_ID")
  String sessionId;

  @Option(names = "--json", description = "Print as JSON.")
  boolean json;

  @Override
  public Integer call() {
    var cfg = config();
    try (Ledgers ledgers = readLedgers(cfg)) {
      var view = SessionHistory.load(ledgers, sessionId).orElseThrow(() -> new IllegalArgumentException(
          "session " + sessionId + " is not in the ledgers under " + cfg.home() + " (see 'cpctl sessions')"));
      var approvals = ApprovalHistory.of(ledgers, sessionId);
      if (json) {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.tree(view);
        tree.set("approvals", Json.tree(approvals));
        var models = ModelsAnswered.of(ledgers, sessionId);
        tree.set("answered_by", Json.tree(models.answeredBy()));
        tree.set("fallbacks", Json.tree(models.fallbacks()));
        out().println(Json.pretty(tree));
        return Cpctl.OK;
      }
      out().printf(Locale.ROOT, "%s  agent %s  started %s  %s%n", view.sessionId(), view.agentClass(),
          view.startedAt(), view.endedAt() == null ? "(not ended)" : "ended " + view.endedAt() + " (" + view.endReason() + ")");
      for (var t : view.turns()) {
        int unpriced = t.unpricedCalls() == null ? 0 : t.unpricedCalls();
        out().printf(Locale.ROOT, "%nturn %d  [%s]  tokens %d in / %d out  %s  LLM calls %d  tool calls %d%s%n",
            t.turn(), t.outcome(), t.inputTokens(), t.outputTokens(), cost(t.cost(), unpriced), t.llmCalls(),
            t.toolCalls(),
            t.escalated() ? "  ESCALATED" : "");
        out().println("  user:  " + cut(t.input()));
        out().println("  reply: " + cut(t.reply()));
        for (var wo : t.chain()) {
          out().println("  " + wo.woId() + "  " + wo.type() + "  " + wo.state()
              + (wo.errorCode() == null ? "" : "  " + wo.errorCode()));
        }
        for (String d : t.degradations()) {
          out().println("  DEGRADATION: " + d);
        }
      }
      if (!approvals.isEmpty()) {
        out().println();
        out().println("approvals:");
        for (var a : approvals) {
          out().println("  " + a.approvalId() + "  turn " + a.turn() + "  " + a.tool() + "  "
              + (a.decided() ? a.decision() + (cp.model.ApprovalResult.SYSTEM.equals(a.decidedBy()) ? "" : " by "
                  + a.decidedBy()) + " at " + a.decidedAt() + (a.reason() == null ? "" : " (" + cut(a.reason()) + ")")
                  : "PENDING (asked " + a.requestedAt() + ", deadline " + a.deadline() + ")"));
          out().println("    " + cut(cp.model.DisplayText.escape(a.summary())));
        }
      }
      List<String> models = ModelsAnswered.of(ledgers, sessionId).lines();
      if (!models.isEmpty()) {
        out().println();
        models.forEach(out()::println);
      }
      out().printf(Locale.ROOT, "%ntotal: %d turn(s), %d tokens, %s%n", view.turns().size(), view.totalTokens(),
          cost(view.totalCost(), view.totalUnpricedCalls()));
    }
    return Cpctl.OK;
  }

  /**
   * Dollars, or as the chat footer says it when calls had no price ({@link TurnPrinter#cost}): an unpriced
   * call records a cost of 0, so no cost at all beside unpriced calls means none had a price.
   */
  private static String cost(double usd, int unpriced) {
    return TurnPrinter.cost(usd, unpriced, usd == 0.0);
  }

  private static String cut(String s) {
    if (s == null) {
      return "(none)";
    }
    String one = s.replace("\n", " ");
    return one.length() <= MAX_SHOWN_CHARS ? one : one.substring(0, MAX_SHOWN_CHARS) + "…";
  }
}
