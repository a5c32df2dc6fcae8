package cp.bench;

import cp.ledger.Durability;
import cp.ledger.Ledger;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerDatabase;
import cp.ledger.LedgerOptions;
import cp.ledger.LedgerSettings;
import cp.ledger.LedgerStream;
import cp.ledger.PostgresStore;
import cp.ledger.StreamId;
import cp.ledger.Tier;
import cp.model.EventType;
import cp.model.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * P4, first half: appends per second to one ledger file under each durability policy, from one
 * thread and from {@link #THREADS} threads at once (where fsync-each writers can share a flush).
 * The entries are LLM_CALL-sized. With a {@link BenchPostgres}, the same for the PostgreSQL store.
 */
final class LedgerBench {
  /** Concurrent writers: about what one worker's activity threads produce under load. */
  static final int THREADS = 8;

  private final Path dir;
  private final int appends;
  private final BenchPostgres postgres;

  /** {@code postgres}: also measure the PostgreSQL store there (null: the JSONL files only). */
  LedgerBench(Path dir, int appends, BenchPostgres postgres) {
    this.dir = dir;
    this.appends = appends;
    this.postgres = postgres;
  }

  List<Measure> run() throws Exception {
    List<Measure> out = new ArrayList<>();
    for (Durability d : Durability.values()) {
      double single = appendsPerSecond(d, 1);
      double multi = appendsPerSecond(d, THREADS);
      out.add(Measure.info(Measure.Id.P4, "ledger appends/s, durability " + name(d),
          String.format(Locale.ROOT, "%,.0f /s (1 thread), %,.0f /s (%d threads)", single, multi, THREADS),
          appends + " LLM_CALL-sized entries per run, one file"));
    }
    if (postgres != null) {
      double single = postgresAppendsPerSecond(1);
      double multi = postgresAppendsPerSecond(THREADS);
      out.add(Measure.info(Measure.Id.P4, "ledger appends/s, PostgreSQL store",
          String.format(Locale.ROOT, "%,.0f /s (1 thread), %,.0f /s (%d threads)", single, multi, THREADS),
          appends + " LLM_CALL-sized entries per run, one stream, durable commits (HOT's fsync policy), "
              + postgres.describe()));
    }
    return out;
  }

  private double postgresAppendsPerSecond(int threads) throws Exception {
    LedgerDatabase db = postgres.freshDatabase("p4_appends_" + threads);
    try (PostgresStore store = PostgresStore.open(db, LedgerSettings.all(Durability.FSYNC_EACH).withDatabase(db))) {
      return appendsPerSecond(store.open(new StreamId(Tier.HO1, null)), threads);
    }
  }

  static String name(Durability d) {
    return switch (d) {
      case FSYNC_EACH -> "fsync each";
      case BATCHED -> "batched";
      case NONE -> "none";
    };
  }

  private double appendsPerSecond(Durability d, int threads) throws Exception {
    Path file = dir.resolve("appends-" + d.name().toLowerCase(Locale.ROOT) + "-" + threads + ".jsonl");
    Files.createDirectories(dir);
    try (Ledger ledger = Ledger.open(file, LedgerOptions.of(d))) {
      return appendsPerSecond(ledger, threads);
    }
  }

  private double appendsPerSecond(LedgerStream ledger, int threads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      int each = Math.max(1, appends / threads);
      List<Callable<Void>> work = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        work.add(() -> {
          for (int i = 0; i < each; i++) {
            ledger.write(entry(thread, i));
          }
          return null;
        });
      }
      long start = System.nanoTime();
      for (Future<Void> f : pool.invokeAll(work)) {
        f.get();
      }
      return each * threads / (Stats.millisSince(start) / 1000.0);
    } finally {
      pool.shutdownNow();
    }
  }

  /** An entry shaped like HO1's LLM_CALL: about 600 bytes on disk. */
  static LedgerEntry entry(int thread, int i) {
    String wo = String.format(Locale.ROOT, "WO-0000beef-%04d-%02d", i, thread);
    var meta = Json.object().put("tier", "ho1").put("wo_id", wo).put("session_id", "SES-0000beef")
        .put("round", 1).put("contract_id", "PRC-SYNTHESIZE-001").put("input_tokens", 1834).put("output_tokens", 96)
        .put("model_id", "claude-sonnet-4-5").put("provider_id", "anthropic").put("latency_ms", 201)
        .put("finish_reason", "stop").put("exchange_entry_id", "LED-0123456789abcdef").put("replayed", false);
    return LedgerEntry.builder(EventType.LLM_CALL.wire()).submissionId(wo).decision("SUCCESS")
        .reason("round 1 via anthropic")
        .metadata(meta).idempotencyKey(EventType.LLM_CALL.wire() + "/bench/" + thread + "/" + i).build();
  }
}
