package cp.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-memory index of one ledger: where each line starts and the fields readers filter on.
 *
 * <p>Attention reads a session's recent entries on every turn; scanning a ledger that grows
 * with every exchange would make a turn's cost grow with the age of the plane. The index keeps
 * row numbers per event type, session and work order, so a read touches only the lines it
 * returns. Not thread-safe: {@link Ledger} guards it with its lock.
 */
final class LedgerIndex {
  record Row(long offset, int length, String entryId, String eventType, String sessionId, String workOrderId) {}

  private final List<Row> rows = new ArrayList<>();
  private final Map<String, List<Integer>> byEventType = new HashMap<>();
  private final Map<String, List<Integer>> bySession = new HashMap<>();
  private final Map<String, List<Integer>> byWorkOrder = new HashMap<>();
  private final Map<String, Integer> byEntryId = new HashMap<>();
  private final Map<String, String> idByIdempotencyKey = new HashMap<>();
  /**
   * For each line that is not an entry (it did not parse), the number of rows before it, ascending: a
   * row's line number is its row number plus one plus the lines skipped before it. Empty for an intact
   * ledger, so it costs nothing there.
   */
  private final List<Integer> skippedBeforeRow = new ArrayList<>();

  void add(Row row, String idempotencyKey) {
    int n = rows.size();
    rows.add(row);
    add(byEventType, row.eventType(), n);
    add(bySession, row.sessionId(), n);
    add(byWorkOrder, row.workOrderId(), n);
    if (row.entryId() != null) {
      byEntryId.putIfAbsent(row.entryId(), n);
    }
    if (idempotencyKey != null && row.entryId() != null) {
      idByIdempotencyKey.putIfAbsent(idempotencyKey, row.entryId());
    }
  }

  private static void add(Map<String, List<Integer>> map, String key, int row) {
    if (key != null) {
      map.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
    }
  }

  Row row(int i) {
    return rows.get(i);
  }

  String idForKey(String idempotencyKey) {
    return idempotencyKey == null ? null : idByIdempotencyKey.get(idempotencyKey);
  }

  boolean containsId(String entryId) {
    return byEntryId.containsKey(entryId);
  }

  Integer rowOf(String entryId) {
    return byEntryId.get(entryId);
  }

  /** Records a line that is not an entry (not indexed), so the line numbers of the rows after it stay right. */
  void skipLine() {
    skippedBeforeRow.add(rows.size());
  }

  /** The 1-based line number of an entry in the file, or null when it is not indexed. */
  Long lineOf(String entryId) {
    Integer row = byEntryId.get(entryId);
    if (row == null) {
      return null;
    }
    long skipped = skippedBeforeRow.stream().filter(r -> r <= row).count();
    return row + 1 + skipped;
  }

  /** Row numbers matching the query, in file order, the last {@code limit} when limit > 0. */
  List<Integer> select(LedgerQuery q) {
    List<Integer> candidates = null;
    List<List<Integer>> filters = new ArrayList<>();
    if (q.eventType() != null) {
      filters.add(byEventType.getOrDefault(q.eventType(), List.of()));
    }
    if (q.sessionId() != null) {
      filters.add(bySession.getOrDefault(q.sessionId(), List.of()));
    }
    if (q.workOrderId() != null) {
      filters.add(byWorkOrder.getOrDefault(q.workOrderId(), List.of()));
    }
    for (List<Integer> list : filters) {
      if (candidates == null || list.size() < candidates.size()) {
        candidates = list;
      }
    }
    List<Integer> out = new ArrayList<>();
    if (candidates == null) {
      int from = q.limit() > 0 ? Math.max(0, rows.size() - q.limit()) : 0;
      for (int i = from; i < rows.size(); i++) {
        out.add(i);
      }
      return out;
    }
    // Walk from the end so a small limit stops early on a long list.
    for (int k = candidates.size() - 1; k >= 0; k--) {
      int i = candidates.get(k);
      Row r = rows.get(i);
      if (matches(r, q)) {
        out.add(i);
        if (q.limit() > 0 && out.size() == q.limit()) {
          break;
        }
      }
    }
    java.util.Collections.reverse(out);
    return out;
  }

  private static boolean matches(Row r, LedgerQuery q) {
    return (q.eventType() == null || q.eventType().equals(r.eventType()))
        && (q.sessionId() == null || q.sessionId().equals(r.sessionId()))
        && (q.workOrderId() == null || q.workOrderId().equals(r.workOrderId()));
  }
}
