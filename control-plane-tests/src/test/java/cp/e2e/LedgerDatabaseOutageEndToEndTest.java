package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.FailureCode;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * Issue 20 §1: the ledger database (a real embedded PostgreSQL, {@code CP_LEDGER_URL}) stops
 * while a paid call is in flight: the provider has answered, the EXCHANGE cannot be written.
 * With the production retry settings (five LLM attempts, 1 s backoff doubling), for an outage
 * of 8 s and of 15 s: every request the provider answered has its EXCHANGE once the database is
 * back (none paid twice, none lost), and the turn either answers or fails saying the ledger
 * database was down ({@code ledger_unavailable}), never a silent degradation. The loss and the
 * return of the database are logged once each.
 */
class LedgerDatabaseOutageEndToEndTest {
  /** Longer than two LLM attempts (each waits 5 s for a pooled connection, 1 s apart). */
  static final long LONG_OUTAGE_MS = 25_000;
  private final MockWebServer server = new MockWebServer();
  private final FaultyAnthropic model = new FaultyAnthropic();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger storeLog = (Logger) LoggerFactory.getLogger("cp.ledger.PostgresStore");
  private PlaneFixture plane;
  private volatile EmbeddedPostgres pg;

  @AfterEach
  void stop() {
    storeLog.detachAppender(logs);
    if (plane != null) {
      plane.close();
    }
    server.close();
    if (pg != null) {
      try {
        pg.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @ParameterizedTest(name = "database down {0} s during a call")
  @ValueSource(ints = {8, 15})
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void databaseStoppedWhileTheProviderAnswers_everyAnsweredRequestGetsItsExchange(int outageSeconds,
      @org.junit.jupiter.api.io.TempDir Path home, @org.junit.jupiter.api.io.TempDir Path data) throws Exception {
    int port = freePort();
    startPlane(port, home, data, Map.of());
    String sid = plane.client.startSession("ADMIN");
    assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "hello").outcome());

    AtomicBoolean armed = new AtomicBoolean(true);
    CompletableFuture<Void> back = new CompletableFuture<>();
    model.onEachRequest(() -> {
      if (armed.compareAndSet(true, false)) {
        // The database goes away while the provider is working on this request; it answers 200.
        stopDatabase();
        CompletableFuture.runAsync(() -> {
          sleep(outageSeconds * 1000L);
          try {
            pg = start(port, data);
            back.complete(null);
          } catch (IOException e) {
            back.completeExceptionally(e);
          }
        });
      }
    });
    TurnResult during = plane.client.turn(sid, "hello");
    back.get(60, TimeUnit.SECONDS);
    // A turn after the database is back: the plane is whole again.
    TurnResult after = plane.client.turn(sid, "hello");
    plane.client.end(sid);

    assertEquals(TurnOutcome.SUCCESS, after.outcome(), after::toString);
    assertTrue(TurnOutcome.SUCCESS.equals(during.outcome())
        || FailureCode.LEDGER_UNAVAILABLE.wire().equals(during.errorCode()), () -> "the turn during the outage"
        + " answers, or fails saying the ledger database was down; it was " + during);
    if (!TurnOutcome.SUCCESS.equals(during.outcome())) {
      assertTrue(during.response().contains("ledger database"), during::response);
    }
    LedgerStream hot = plane.runtime.ledgers().hot();
    List<LedgerEntry> exchanges = hot.byEventType("EXCHANGE");
    long paid = exchanges.stream().filter(e -> "success".equals(e.metaText("outcome"))).count();
    // FaultyAnthropic answers every request with 200: each one was paid for.
    assertEquals(model.seen.size(), paid, () -> "provider answers (200) = successful EXCHANGEs; EXCHANGE outcomes: "
        + exchanges.stream().map(e -> e.metaText("outcome") + "/" + e.metaText("error_code")).toList());
    for (LedgerStream l : List.of(hot, plane.runtime.ledgers().ho2("ADMIN"), plane.runtime.ledgers().ho1())) {
      assertTrue(l.verify().ok(), l.location() + ": " + l.verify().reason());
      List<String> keys = l.readAll().stream().map(LedgerEntry::idempotencyKey).filter(k -> k != null).toList();
      assertEquals(keys.size(), keys.stream().distinct().count(), "no key twice in " + l.location());
    }
    long lost = logs.list.stream().filter(e -> e.getFormattedMessage().contains("is unreachable")).count();
    long regained = logs.list.stream().filter(e -> e.getFormattedMessage().contains("reachable again")).count();
    assertEquals(1, lost, "the loss of the database is logged once");
    assertEquals(1, regained, "its return is logged once");
  }

  /** PostgreSQL on {@code port}, the fake Anthropic API, and a plane with the production retry defaults. */
  private void startPlane(int port, Path home, Path data, Map<String, String> extra) throws IOException {
    pg = start(port, data);
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    Map<String, String> env = new HashMap<>(PlaneFixture.env(home, Map.of()));
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", "test-key");
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    env.put("CP_LEDGER_URL", "jdbc:postgresql://localhost:" + port + "/postgres");
    env.put("CP_LEDGER_USER", "postgres");
    // The production defaults (WorkerSettings): five LLM attempts, 1 s backoff doubling to 30 s.
    env.put("CP_RETRY_INITIAL_MS", "1000");
    env.put("CP_RETRY_MAX_MS", "30000");
    env.put("CP_LLM_MAX_ATTEMPTS", "5");
    env.put("CP_LOCAL_MAX_ATTEMPTS", "5");
    env.putAll(extra);
    plane = PlaneFixture.start(env, PlaneRuntime::builtinTools);
    logs.start();
    storeLog.addAppender(logs);
  }

  /**
   * The database stays down longer than the LLM call's retries (two attempts): the round gives up
   * as {@code ledger_unavailable}, the turn's bookkeeping waits for the database, and once it is
   * back the turn ends without an answer of its own: degraded, or failed, its DEGRADATION record
   * saying the ledger database was down, never a silent success. The answer the provider gave
   * before the database went away is recorded once it is back, from the spool.
   */
  @org.junit.jupiter.api.Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void databaseDownLongerThanTheRetries_theTurnSaysSo_andTheKeptAnswerIsRecordedLater(
      @org.junit.jupiter.api.io.TempDir Path home, @org.junit.jupiter.api.io.TempDir Path data) throws Exception {
    int port = freePort();
    startPlane(port, home, data, Map.of("CP_LLM_MAX_ATTEMPTS", "2"));
    String sid = plane.client.startSession("ADMIN");
    assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "hello").outcome());
    AtomicBoolean armed = new AtomicBoolean(true);
    CompletableFuture<Void> back = new CompletableFuture<>();
    model.onEachRequest(() -> {
      if (armed.compareAndSet(true, false)) {
        stopDatabase();
        CompletableFuture.runAsync(() -> {
          sleep(LONG_OUTAGE_MS);
          try {
            pg = start(port, data);
            back.complete(null);
          } catch (IOException e) {
            back.completeExceptionally(e);
          }
        });
      }
    });

    TurnResult during = plane.client.turn(sid, "hello");
    back.get(60, TimeUnit.SECONDS);
    TurnResult after = plane.client.turn(sid, "hello");

    System.out.printf("LedgerDatabaseOutageEndToEndTest: database down %d ms: the turn ended %s (%s): %s%n",
        LONG_OUTAGE_MS, during.outcome(), during.errorCode(), during.response());
    assertTrue(!TurnOutcome.SUCCESS.equals(during.outcome()), during::toString);
    assertTrue(FailureCode.LEDGER_UNAVAILABLE.wire().equals(during.errorCode())
        || FailureCode.HO2_FAILED.wire().equals(during.errorCode()), during::toString);
    LedgerStream hot = plane.runtime.ledgers().hot();
    List<LedgerEntry> degradations = hot.bySession(sid).stream()
        .filter(e -> "DEGRADATION".equals(e.eventType())).toList();
    assertEquals(1, degradations.size());
    assertEquals(FailureCode.LEDGER_UNWRITABLE.wire(), degradations.get(0).metaText("error_type"));
    assertTrue(degradations.get(0).metaText("error_message").contains("ledger database is down or unreachable"),
        degradations.get(0)::toString);
    assertEquals(TurnOutcome.SUCCESS, after.outcome(), after::toString);
    List<LedgerEntry> exchanges = hot.byEventType("EXCHANGE");
    long paid = exchanges.stream().filter(e -> "success".equals(e.metaText("outcome"))).count();
    assertEquals(model.seen.size(), paid, "every answered request is on record, the kept one too");
    assertEquals(1, exchanges.stream().filter(e -> e.metaText(cp.gateway.ExchangeSpool.KEPT_AT) != null).count(),
        "one EXCHANGE was recorded late, from the spool");
  }

  private void stopDatabase() {
    try {
      pg.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static EmbeddedPostgres start(int port, Path data) throws IOException {
    return EmbeddedPostgres.builder().setDataDirectory(data.resolve("pg")).setCleanDataDirectory(false).setPort(port)
        .start();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
