package cp.cli;

import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.ledger.Tier;
import cp.model.EventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Issue 23, for {@code cpctl show}: which models answered a session's calls (its successful
 * EXCHANGEs, by provider and model) and each FALLBACK from one model to the next, with why.
 */
record ModelsAnswered(Map<String, Integer> answeredBy, List<String> fallbacks) {
  static ModelsAnswered of(Ledgers ledgers, String sessionId) {
    Map<String, Integer> by = new TreeMap<>();
    List<String> hops = new ArrayList<>();
    List<LedgerEntry> hot = ledgers.existing(Tier.HOT, null).map(l -> l.bySession(sessionId)).orElse(List.of());
    for (LedgerEntry e : hot) {
      if (EventType.EXCHANGE.is(e.eventType()) && "success".equals(e.metaText("outcome"))) {
        by.merge(e.metaText("provider_id") + "/" + e.metaText("model_id"), 1, Integer::sum);
      } else if (EventType.FALLBACK.is(e.eventType())) {
        hops.add(e.timestamp() + "  " + e.reason());
      }
    }
    return new ModelsAnswered(by, hops);
  }

  /** The lines the text view prints (none when no call was answered and none fell back). */
  List<String> lines() {
    List<String> out = new ArrayList<>();
    if (!answeredBy.isEmpty()) {
      StringBuilder b = new StringBuilder("answered by:");
      answeredBy.forEach((m, n) -> b.append(' ').append(m).append(" (").append(n).append(n == 1 ? " call)" : " calls)"));
      out.add(b.toString());
    }
    fallbacks.forEach(f -> out.add("FALLBACK " + f));
    return out;
  }
}
