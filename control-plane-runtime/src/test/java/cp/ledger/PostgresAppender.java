package cp.ledger;

import cp.model.Json;

/** Test helper process: appends N entries to the HOT stream of a PostgreSQL ledger, as a worker on another host would. */
public final class PostgresAppender {
  private PostgresAppender() {}

  /** Args: JDBC URL, user, N, writer name, and the epoch millisecond to start appending at (so both run at once). */
  public static void main(String[] args) throws InterruptedException {
    LedgerDatabase db = new LedgerDatabase(args[0], args[1], null);
    int n = Integer.parseInt(args[2]);
    String writer = args[3];
    try (PostgresStore store = PostgresStore.open(db, LedgerSettings.all(Durability.FSYNC_EACH).withDatabase(db))) {
      LedgerStream l = store.open(new StreamId(Tier.HOT, null));
      l.appendProblem(); // the first check of the chain, before the start
      Thread.sleep(Math.max(0, Long.parseLong(args[4]) - System.currentTimeMillis()));
      for (int i = 0; i < n; i++) {
        l.write(LedgerEntry.builder("APPEND").submissionId(writer)
            .metadata(Json.object().put("session_id", writer).put("i", i))
            .idempotencyKey(writer + "/" + i).build());
      }
    }
  }
}
