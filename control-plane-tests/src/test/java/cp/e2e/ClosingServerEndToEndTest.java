package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.bench.SocketHttpServer;
import cp.bench.SocketHttpServer.Connections;
import cp.bench.SocketHttpServer.Reply;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole sessions against real servers that close connections ({@link SocketHttpServer} on a
 * real socket): an HTTP/1.0-style server closing after every response, and a keep-alive server
 * dropping connections idle for 200 ms. Every provider call succeeds on its first attempt: no
 * error EXCHANGE, no Temporal retry. A server that read a request and dropped the connection
 * without answering is a different matter: that request may have been acted on, so the
 * transport does not send it again; Temporal does, after an error EXCHANGE.
 */
class ClosingServerEndToEndTest {
  static final int TURNS = 8;
  /** The provider latency of the measurement. */
  static final Duration LATENCY = Duration.ofMillis(200);
  static final Duration IDLE_TIMEOUT = Duration.ofMillis(200);
  static final Duration PAUSE = IDLE_TIMEOUT.multipliedBy(2);
  /** The default retry backoff, as in the measurement (a stale connection used to cost one). */
  static final Map<String, String> DEFAULT_BACKOFF = Map.of("CP_RETRY_INITIAL_MS", "1000", "CP_RETRY_MAX_MS", "30000");
  static final String ANSWER = "Hello from a server that closes connections.";

  @TempDir Path home;

  @Test
  void serverClosingAfterEveryResponse_everyCallSucceedsOnItsFirstAttempt() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.closing(), model(LATENCY, n -> false));
        PlaneFixture plane = plane(server, DEFAULT_BACKOFF)) {
      String sid = plane.client.startSession("ADMIN");
      assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "warm-up").outcome()); // class loading, JIT
      int before = exchanges(plane, sid).size();
      long start = System.nanoTime();
      for (int t = 1; t <= TURNS; t++) {
        TurnResult r = plane.client.turn(sid, "hello " + t);
        assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
        assertEquals(ANSWER, r.response());
      }
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.printf("ClosingServerEndToEndTest: %d turns (%d provider calls at %d ms) against a server closing"
          + " after every response: %d ms, %d EXCHANGEs%n", TURNS, 2 * TURNS, LATENCY.toMillis(), ms,
          exchanges(plane, sid).size() - before);

      assertAllFirstAttemptSuccesses(plane, sid, 2 * (TURNS + 1));
      assertEquals(2 * (TURNS + 1), server.requests(), "each call reached the server exactly once");
      assertEquals(2 * (TURNS + 1), server.accepted(), "one connection per call: every pooled one was found closed");
    }
  }

  @Test
  void keepAliveServerDroppingIdleConnections_everyCallSucceedsOnItsFirstAttempt() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(IDLE_TIMEOUT),
        model(Duration.ZERO, n -> false)); PlaneFixture plane = plane(server)) {
      String sid = plane.client.startSession("ADMIN");
      int turns = 4;
      for (int t = 1; t <= turns; t++) {
        assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "hello " + t).outcome());
        Thread.sleep(PAUSE.toMillis()); // longer than the server keeps an idle connection
      }

      assertAllFirstAttemptSuccesses(plane, sid, 2 * turns);
      assertEquals(2 * turns, server.requests(), "each call reached the server exactly once");
      assertTrue(server.accepted() >= turns, "the server dropped idle connections: " + server.accepted()
          + " connections for " + turns + " turns");
    }
  }

  @Test
  void serverThatReadTheRequestAndDroppedIt_isRetriedByTemporalNotByTheTransport() throws Exception {
    int dropped = 3; // the first call of the second turn, on a reused connection
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        model(Duration.ZERO, n -> n == dropped)); PlaneFixture plane = plane(server)) {
      String sid = plane.client.startSession("ADMIN");
      assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "hello 1").outcome());

      TurnResult r = plane.client.turn(sid, "hello 2");

      assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
      List<LedgerEntry> exchanges = exchanges(plane, sid);
      assertEquals(5, exchanges.size(), "2 + 1 failed + 2");
      LedgerEntry failed = exchanges.get(2);
      assertEquals("error", failed.metaText("outcome"));
      assertEquals("connection", failed.metaText("error_code"));
      assertEquals(1, failed.meta("attempt").asInt());
      assertTrue(failed.metaText("error_message").contains("may have reached the server"),
          failed.metaText("error_message"));
      LedgerEntry retried = exchanges.get(3);
      assertEquals("success", retried.metaText("outcome"));
      assertEquals(2, retried.meta("attempt").asInt(), "Temporal's retry, a new activity attempt");
      assertEquals(failed.metaText("activity_id"), retried.metaText("activity_id"));
      assertEquals(5, server.requests(), "the dropped request reached the server once per activity attempt");
    }
  }

  private void assertAllFirstAttemptSuccesses(PlaneFixture plane, String sid, int calls) {
    List<LedgerEntry> exchanges = exchanges(plane, sid);
    assertEquals(calls, exchanges.size());
    for (LedgerEntry e : exchanges) {
      assertEquals("success", e.metaText("outcome"), () -> "error EXCHANGE: " + e.metaText("error_message"));
      assertEquals(1, e.meta("attempt").asInt(), "no Temporal retry");
    }
    assertTrue(hot(plane).verify().ok());
  }

  private PlaneFixture plane(SocketHttpServer server) {
    return plane(server, Map.of());
  }

  private PlaneFixture plane(SocketHttpServer server, Map<String, String> extra) {
    Map<String, String> env = new java.util.HashMap<>(extra);
    env.put("CP_BREAKER_FAILURES", "1000");
    return PlaneFixture.start(ProviderFaultsEndToEndTest.anthropicEnv(home, server.baseUrl().toString(), env),
        PlaneRuntime::builtinTools);
  }

  /** A Messages API for one-step turns, answering after {@code latency}; request n is dropped when {@code drop(n)}. */
  private static SocketHttpServer.Handler model(Duration latency, IntPredicate drop) {
    AtomicInteger count = new AtomicInteger();
    return (body, connectionRequest) -> {
      if (drop.test(count.incrementAndGet())) {
        return Reply.DROP;
      }
      sleep(latency);
      String system = Json.parse(new String(body, StandardCharsets.UTF_8)).path("system").asText("");
      String text = system.contains("## This step: classify") ? "{\"speech_act\":\"greeting\",\"ambiguity\":\"low\"}"
          : Json.object().put("response_text", ANSWER).toString();
      JsonNode reply = Json.parse("{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\","
          + "\"model\":\"claude-fake\",\"content\":[" + Json.object().put("type", "text").put("text", text) + "],"
          + "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":100,\"output_tokens\":20}}");
      return Reply.json(200, reply.toString().getBytes(StandardCharsets.UTF_8));
    };
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static LedgerStream hot(PlaneFixture plane) {
    return plane.runtime.ledgers().hot();
  }

  private static List<LedgerEntry> exchanges(PlaneFixture plane, String sid) {
    return hot(plane).bySession(sid).stream().filter(e -> e.eventType().equals("EXCHANGE")).toList();
  }
}
