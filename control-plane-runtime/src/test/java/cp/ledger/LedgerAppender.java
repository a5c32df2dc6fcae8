package cp.ledger;

import cp.model.Json;
import java.nio.file.Path;

/** Test helper process: appends N entries tagged with a writer name, as a second JVM would. */
public final class LedgerAppender {
  private LedgerAppender() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    String writer = args[2];
    try (Ledger l = Ledger.open(file, LedgerOptions.of(Durability.parse(args.length > 3 ? args[3] : "none")))) {
      for (int i = 0; i < n; i++) {
        l.write(LedgerEntry.builder("APPEND").submissionId(writer)
            .metadata(Json.object().put("session_id", writer).put("i", i))
            .idempotencyKey(writer + "/" + i).build());
      }
    }
  }
}
