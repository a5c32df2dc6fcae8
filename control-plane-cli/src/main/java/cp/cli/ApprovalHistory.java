package cp.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.activities.ApprovalActivitiesImpl;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Approvals as HO1m recorded them (issue 15): each APPROVAL_REQUESTED with its APPROVAL_DECIDED,
 * if any. Read from the ledger, so it needs no Temporal service (as {@code cpctl show}).
 */
final class ApprovalHistory {
  /** One approval: what was asked and, once decided, how. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Entry(String approvalId, String sessionId, int turn, String tool, String summary, String requestedAt,
      String deadline, String decision, String decidedBy, String decidedAt, String reason) {
    boolean decided() {
      return decision != null;
    }
  }

  private ApprovalHistory() {}

  /** The session's approvals in the order they were asked. */
  static List<Entry> of(Ledgers ledgers, String sessionId) {
    return build(ledgers.ho1().bySession(sessionId));
  }

  private static List<Entry> build(List<LedgerEntry> entries) {
    Map<String, LedgerEntry> asked = new LinkedHashMap<>();
    Map<String, LedgerEntry> decided = new LinkedHashMap<>();
    for (LedgerEntry e : entries) {
      if (ApprovalActivitiesImpl.APPROVAL_REQUESTED.equals(e.eventType())) {
        asked.putIfAbsent(e.metaText("approval_id"), e);
      } else if (ApprovalActivitiesImpl.APPROVAL_DECIDED.equals(e.eventType())) {
        decided.putIfAbsent(e.metaText("approval_id"), e);
      }
    }
    List<Entry> out = new ArrayList<>();
    asked.values().stream().sorted(java.util.Comparator.comparing(LedgerEntry::timestamp)).forEach(a -> {
      LedgerEntry d = decided.get(a.metaText("approval_id"));
      out.add(new Entry(a.metaText("approval_id"), a.sessionId(), a.meta("turn").asInt(), a.metaText("tool_id"),
          a.metaText("summary"), a.metaText("requested_at"), a.metaText("deadline"),
          d == null ? null : d.metaText("decision"), d == null ? null : d.metaText("decided_by"),
          d == null ? null : d.metaText("decided_at"), d == null ? null : d.metaText("reason")));
    });
    return out;
  }
}
