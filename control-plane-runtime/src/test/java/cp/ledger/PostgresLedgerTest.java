package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the PostgreSQL store has to show: other JVMs on one stream, and a database that goes away and comes back. */
class PostgresLedgerTest {
  static final StreamId HOT = new StreamId(Tier.HOT, null);

  @TempDir Path dir;

  @Test
  void twoJvms_appendToOneStreamAtOnce_intoOneValidChain_eachEntryOnce() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    int each = 400;
    // Both start appending at the same moment, well after both JVMs are up.
    String startAt = String.valueOf(System.currentTimeMillis() + 6_000);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Process> procs = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    for (String writer : List.of("jvm-a", "jvm-b")) {
      Path log = dir.resolve(writer + ".log");
      logs.add(log);
      procs.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), PostgresAppender.class.getName(),
          db.url(), db.user(), String.valueOf(each), writer, startAt).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start());
    }
    for (int i = 0; i < procs.size(); i++) {
      Process p = procs.get(i);
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "appender finished");
      Path log = logs.get(i);
      assertEquals(0, p.exitValue(), () -> "appender exit code; its last lines:\n" + tail(log));
    }
    try (PostgresStore store = PostgresStore.open(db, LedgerSettings.all(Durability.FSYNC_EACH).withDatabase(db))) {
      LedgerStream l = store.open(HOT);
      assertTrue(l.verify().ok(), l.verify().reason());
      List<LedgerEntry> all = l.readAll();
      assertEquals(2 * each, all.size());
      Set<String> keys = new HashSet<>();
      all.forEach(e -> keys.add(e.idempotencyKey()));
      assertEquals(2 * each, keys.size(), "every entry once");
      // Both writers really interleaved: neither wrote all of its entries in one run.
      long switches = 0;
      for (int i = 1; i < all.size(); i++) {
        if (!all.get(i).submissionId().equals(all.get(i - 1).submissionId())) {
          switches++;
        }
      }
      assertTrue(switches > 1, "the two JVMs' appends interleave (" + switches + " switches)");
    }
  }

  @Test
  void databaseRestartedMidStream_writesFailRetryably_thenResume_nothingLostNothingTwice() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path data = dir.resolve("pgdata");
    EmbeddedPostgres pg = start(data, port);
    LedgerDatabase db = new LedgerDatabase("jdbc:postgresql://localhost:" + port + "/postgres", "postgres", null);
    try (PostgresStore store = PostgresStore.open(db, LedgerSettings.all(Durability.FSYNC_EACH).withDatabase(db))) {
      LedgerStream hot = store.open(HOT);
      for (int i = 0; i < 3; i++) {
        hot.write(entry(i));
      }
      pg.close();

      LedgerException lost = assertThrows(LedgerException.class, () -> hot.write(entry(3)));
      assertTrue(LedgerProblem.of(lost).isEmpty(), "a lost database is not an unwritable ledger: Temporal retries it");
      assertTrue(lost.getMessage().contains("jdbc:postgresql://localhost:" + port), lost.getMessage());
      assertThrows(LedgerException.class, hot::appendProblem, "the gateway pays for nothing it cannot record");
      // The cheap probe the gateway calls before it pays: a problem, not an exception, within its timeout.
      for (int probe = 0; probe < 2; probe++) {
        long t0 = System.nanoTime();
        LedgerProblem down = hot.writable().orElseThrow();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(LedgerProblem.Kind.UNREACHABLE, down.kind(), down.message());
        assertTrue(down.transientProblem(), "retried once the database is back");
        assertTrue(ms < LedgerProblem.PROBE_TIMEOUT.toMillis() + 1_000, "answered in " + ms + " ms");
        assertTrue(down.message().startsWith("HOT ledger HOT/ledger/postgresql cannot be written: the ledger database"
            + " does not answer"), down.message());
      }

      pg = start(data, port);
      String id = retried(() -> hot.write(entry(3)));
      assertEquals(id, hot.write(entry(3)), "the retry after the restart wrote it once");
      hot.write(entry(4));
      assertEquals(java.util.Optional.empty(), hot.writable(), "writable again once the database is back");
      assertEquals(5, hot.size(), "nothing lost, nothing twice");
      assertTrue(hot.verify().ok(), hot.verify().reason());
    } finally {
      pg.close();
    }
  }

  @Test
  void readersByEventTypeSessionWorkOrderAndLastN_areServedByIndexes() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    try (PostgresStore store = PostgresStore.open(db, LedgerSettings.all(Durability.NONE).withDatabase(db))) {
      LedgerStream l = store.open(HOT);
      List<LedgerEntry> batch = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        batch.add(LedgerEntry.builder("EVENT_" + (i % 20)).metadata(Json.object().put("session_id", "SES-" + (i % 300))
            .put("wo_id", "WO-" + i)).build());
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      for (Future<String> f : pool.invokeAll(batch.stream().map(e -> (Callable<String>) () -> l.write(e)).toList())) {
        f.get();
      }
      pool.shutdown();
      assertEquals(10, l.bySession("SES-7").size());
      assertEquals(1, l.byWorkOrder("WO-42").size());
      assertEquals(150, l.byEventType("EVENT_3").size());
      assertEquals(5, l.lastN(5).size());
    }
    TestPostgres.sql(db, "ANALYZE ledger_entry");
    for (String where : List.of("session_id = 'SES-7'", "work_order_id = 'WO-42'", "event_type = 'EVENT_3'")) {
      String plan = TestPostgres.explain(db, "SELECT body FROM ledger_entry WHERE stream = 'hot' AND " + where
          + " ORDER BY seq");
      assertTrue(plan.contains("Index") && !plan.contains("Seq Scan"), where + ":\n" + plan);
    }
    String last = TestPostgres.explain(db, "SELECT body FROM ledger_entry WHERE stream = 'hot' ORDER BY seq DESC LIMIT 5");
    assertTrue(last.contains("Index") && !last.contains("Seq Scan"), last);
  }

  private static String tail(Path log) {
    try {
      List<String> lines = java.nio.file.Files.readAllLines(log);
      return String.join("\n", lines.stream().filter(l -> !l.contains(" DEBUG ")).toList()
          .subList(Math.max(0, lines.stream().filter(l -> !l.contains(" DEBUG ")).toList().size() - 40),
              lines.stream().filter(l -> !l.contains(" DEBUG ")).toList().size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** What Temporal's retries do for an activity: try again a few times, a little later each time. */
  private static String retried(java.util.function.Supplier<String> write) throws InterruptedException {
    LedgerException last = null;
    for (int attempt = 0; attempt < 10; attempt++) {
      try {
        return write.get();
      } catch (LedgerException e) {
        last = e;
        Thread.sleep(200L * (attempt + 1));
      }
    }
    throw last;
  }

  private static LedgerEntry entry(int i) {
    return LedgerEntry.builder("EXCHANGE").submissionId("restart").metadata(Json.object().put("session_id", "SES-r")
        .put("i", i)).idempotencyKey("restart/" + i).build();
  }

  private static EmbeddedPostgres start(Path data, int port) throws IOException {
    return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port).start();
  }
}
