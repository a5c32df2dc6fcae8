package cp.activities;

import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * trace_hash (FMWK-008): SHA-256 over a work-order chain's HO1m entries, filtered by session and
 * work-order ids, each in canonical JSON, sorted, joined by newlines. Anyone holding the HO1
 * ledger can recompute it and see whether the trace behind a turn was changed.
 */
public final class TraceHash {
  private TraceHash() {}

  public static String of(LedgerStream ho1, String sessionId, List<String> woIds) {
    List<String> lines = new ArrayList<>();
    for (String wo : woIds) {
      for (LedgerEntry e : ho1.byWorkOrder(wo)) {
        if (sessionId.equals(e.sessionId())) {
          lines.add(Json.canonical(e.toJson(true)));
        }
      }
    }
    Collections.sort(lines);
    return Json.sha256(String.join("\n", lines));
  }
}
