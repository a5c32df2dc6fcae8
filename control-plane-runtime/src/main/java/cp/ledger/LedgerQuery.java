package cp.ledger;

/**
 * A filter over one ledger. Null fields match everything.
 *
 * @param eventType exact event type
 * @param sessionId {@code metadata.session_id}
 * @param workOrderId the work order ({@link LedgerEntry#workOrderId()})
 * @param limit when positive, only the last {@code limit} matches (still in file order)
 */
public record LedgerQuery(String eventType, String sessionId, String workOrderId, int limit) {
  /** Filters are cleaned as entries are ({@link StoredText}): a NUL matches what a NUL in an entry became. */
  public LedgerQuery {
    eventType = StoredText.clean(eventType);
    sessionId = StoredText.clean(sessionId);
    workOrderId = StoredText.clean(workOrderId);
  }

  public static final LedgerQuery ALL = new LedgerQuery(null, null, null, 0);

  public static LedgerQuery eventType(String type) {
    return new LedgerQuery(type, null, null, 0);
  }

  public static LedgerQuery session(String sessionId) {
    return new LedgerQuery(null, sessionId, null, 0);
  }

  public static LedgerQuery workOrder(String woId) {
    return new LedgerQuery(null, null, woId, 0);
  }

  public static LedgerQuery last(int n) {
    return new LedgerQuery(null, null, null, n);
  }

  public LedgerQuery withEventType(String type) {
    return new LedgerQuery(type, sessionId, workOrderId, limit);
  }

  public LedgerQuery withSession(String session) {
    return new LedgerQuery(eventType, session, workOrderId, limit);
  }

  public LedgerQuery withLimit(int n) {
    return new LedgerQuery(eventType, sessionId, workOrderId, n);
  }
}
