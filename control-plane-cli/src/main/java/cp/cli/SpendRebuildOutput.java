package cp.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.gateway.ExchangeSpool;
import cp.gateway.SpendRebuild;
import cp.gateway.TenantCounters;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.ledger.Tier;
import cp.model.Json;
import cp.worker.PlaneConfig;
import cp.worker.TenantSpend;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Issue 23: {@code cpctl spend --rebuild}, the tenant counters' settled spend rebuilt from the HOT
 * ledger ({@link SpendRebuild}), each tenant's day and month before and after. Refused while this
 * plane's spool holds paid answers not yet in the ledger; a tenant with calls in flight is left as
 * it is (exit 1, run again once they settle or expire).
 */
final class SpendRebuildOutput {
  private SpendRebuildOutput() {}

  static int run(PlaneConfig cfg, Ledgers opened, Optional<String> tenant, boolean json, PrintStream out,
      PrintStream err) {
    List<TenantCounters.Rebuilt> done;
    try (Ledgers ledgers = opened) {
      int spooled = ExchangeSpool.in(ledgers.layout().ledgerDirectory(Tier.HOT), Clock.systemUTC()).pending().size();
      if (spooled > 0) {
        err.println("cpctl spend --rebuild: " + spooled + " paid answer(s) wait in "
            + ledgers.layout().ledgerDirectory(Tier.HOT).resolve(ExchangeSpool.DIRECTORY) + " for the HOT ledger:"
            + " their costs are not in the ledger yet; run again once a worker has written them");
        return Cpctl.FAILED;
      }
      List<LedgerEntry> hot = ledgers.existing(Tier.HOT, null).map(l -> l.readAll()).orElse(List.of());
      try (TenantCounters counters = TenantSpend.open(cfg)) {
        done = SpendRebuild.run(counters, hot, tenant, Instant.now());
      }
    }
    if (json) {
      ObjectNode o = Json.object();
      ArrayNode a = o.putArray("rebuilt");
      done.forEach(r -> a.add(Json.object().put("tenant", r.tenant()).put("done", r.done())
          .put("in_flight", r.inFlight()).<ObjectNode>set("before", totals(r.before()))
          .set("after", totals(r.after()))));
      out.println(Json.write(o));
    } else if (done.isEmpty()) {
      out.println("cpctl spend --rebuild: nothing to rebuild: the HOT ledger has no EXCHANGE"
          + tenant.map(t -> " of tenant " + t).orElse("") + " and the tenant counters hold no call in flight");
    } else {
      out.println(String.format(Locale.ROOT, "%-32s %-26s %-26s", "tenant", "day spent before → after",
          "month spent before → after"));
      for (TenantCounters.Rebuilt r : done) {
        out.println(String.format(Locale.ROOT, "%-32s %-26s %-26s%s", r.tenant(),
            usd(r.before().daySpent()) + " → " + usd(r.after().daySpent()),
            usd(r.before().monthSpent()) + " → " + usd(r.after().monthSpent()),
            r.done() ? "" : "  not rebuilt: " + r.inFlight() + " call(s) in flight; run again once they settle"
                + " or expire"));
      }
    }
    return done.stream().allMatch(TenantCounters.Rebuilt::done) ? Cpctl.OK : Cpctl.FAILED;
  }

  private static ObjectNode totals(TenantCounters.Totals t) {
    return Json.object().put("day_spent_usd", t.daySpent()).put("month_spent_usd", t.monthSpent())
        .put("day_reserved_usd", t.dayReserved()).put("month_reserved_usd", t.monthReserved());
  }

  private static String usd(double v) {
    return String.format(Locale.ROOT, "$%.6f", v);
  }
}
