package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.CircuitBreaker;
import cp.gateway.ProviderSettings;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.SessionState;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider that stays down, through a whole session on the real runtime: the circuit breaker
 * opens, half-opens and closes per {@code CP_BREAKER_*}; with the provider gone for good the
 * session degrades (DEGRADATION), the degraded call fails too, and the user still gets a
 * TurnResult saying the service is temporarily unavailable, with an EXCHANGE (or, while the
 * breaker refuses, a PROMPT_REJECTED) for every attempt; an endpoint that refuses connections is
 * named in the turn's answer after a short connect budget.
 */
class ProviderOutageEndToEndTest {
  static final int LLM_ATTEMPTS = 3;
  /** Long enough that waiting it out is unmistakable. */
  static final long LONG_COOLDOWN_MS = 20_000;

  @TempDir Path home;
  private final MockWebServer server = new MockWebServer();
  private PlaneFixture plane;

  @AfterEach
  void stop() {
    if (plane != null) {
      plane.close();
    }
    server.close();
  }

  private void startPlane(String baseUrl, Map<String, String> extra) {
    plane = PlaneFixture.start(ProviderFaultsEndToEndTest.anthropicEnv(home, baseUrl, extra),
        PlaneRuntime::builtinTools);
  }

  private static String closedPortUrl() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  @Test
  void circuitBreaker_opensAfterTwoFailures_halfOpensAfterTheCooldown_andClosesOnTheTrialsSuccess() throws Exception {
    long cooldownMs = 1_500;
    FaultyAnthropic model = new FaultyAnthropic();
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    startPlane("http://127.0.0.1:" + server.getPort(), Map.of("CP_BREAKER_FAILURES", "2",
        "CP_BREAKER_COOLDOWN_MS", String.valueOf(cooldownMs), "CP_LLM_MAX_ATTEMPTS", "5"));
    CircuitBreaker breaker = plane.runtime.gateway().breaker("anthropic");
    List<CircuitBreaker.State> stateAtEachRequest = Collections.synchronizedList(new ArrayList<>());
    model.onEachRequest(() -> stateAtEachRequest.add(breaker.state()));
    model.failClassify(List.of(() -> FaultyAnthropic.error(503, "api_error", "unavailable"),
        () -> FaultyAnthropic.error(503, "api_error", "unavailable")));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    List<FaultyAnthropic.Seen> classify = model.of(FaultyAnthropic.CLASSIFY);
    assertEquals(3, classify.size(), "two failures, then the breaker's one trial; refused attempts send nothing");
    assertEquals(List.of(CircuitBreaker.State.CLOSED, CircuitBreaker.State.CLOSED, CircuitBreaker.State.HALF_OPEN),
        stateAtEachRequest.subList(0, 3), "the third request is the half-open trial");
    long openMs = TimeUnit.NANOSECONDS.toMillis(classify.get(2).atNanos() - classify.get(1).atNanos());
    assertTrue(openMs >= cooldownMs - 50, "the trial came " + openMs + " ms after the breaker opened");
    assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "the successful trial closed the breaker");
    List<LedgerEntry> refused = ofType(sid, "PROMPT_REJECTED");
    assertTrue(!refused.isEmpty() && refused.stream().allMatch(e -> "circuit_open".equals(e.metaText("error_code"))),
        "attempts refused by the open breaker are recorded: " + refused);
    assertEquals(2, exchanges(sid, "PRC-CLASSIFY-001").stream().filter(e -> "error".equals(e.metaText("outcome")))
        .count());
    System.out.printf("ProviderOutageEndToEndTest: breaker (2 failures, %d ms cooldown) open for %d ms, %d attempt(s)"
        + " refused, closed after the trial%n", cooldownMs, openMs, refused.size());
  }

  /**
   * Issue 20 §2: a provider endpoint that refuses connections. Before, five classify attempts and
   * two degraded ones (about 22 s) ended in "The service is temporarily unavailable", the cause
   * only in the ledger. Now the connect budget (CP_HTTP_CONNECT_ATTEMPTS, default 2) ends the
   * classify call, the degraded call tries once, and the turn names the endpoint and the cause.
   */
  @Test
  void providerRefusesConnections_theTurnNamesTheEndpointAndTheCause_afterTheConnectBudget() throws Exception {
    String url = closedPortUrl();
    startPlane(url, Map.of("CP_BREAKER_FAILURES", "1000"));
    String sid = plane.client.startSession("ADMIN");

    long start = System.nanoTime();
    TurnResult r = plane.client.turn(sid, "hello");
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("provider_unreachable", r.errorCode(), r::toString);
    String endpoint = url.substring("http://".length());
    assertTrue(r.response().contains(endpoint), "the endpoint " + endpoint + " is named: " + r.response());
    assertTrue(r.response().contains("connection refused"), "the cause is named: " + r.response());
    assertTrue(!r.response().contains("test-key"), r.response());
    assertEquals(1, ofType(sid, "DEGRADATION").size(), "the session degraded before giving up");
    List<LedgerEntry> classify = exchanges(sid, "PRC-CLASSIFY-001");
    List<LedgerEntry> degraded = exchanges(sid, "PRC-DEGRADED-001");
    assertEquals(ProviderSettings.DEFAULT_CONNECT_ATTEMPTS, classify.size(),
        "the connect budget, not the " + LLM_ATTEMPTS + " LLM attempts, bounds the classify call");
    assertEquals(1, degraded.size(), "the degraded call does not retry an endpoint the turn found unreachable");
    for (List<LedgerEntry> attempts : List.of(classify, degraded)) {
      for (int i = 0; i < attempts.size(); i++) {
        LedgerEntry e = attempts.get(i);
        assertEquals("provider_unreachable", e.metaText("error_code"), e::toString);
        assertEquals("error", e.metaText("outcome"), e::toString);
        assertEquals(i + 1, e.meta("attempt").asInt(), e::toString);
      }
    }
    SessionState state = plane.client.state(sid);
    assertEquals(1, state.turns());
    assertEquals(TurnOutcome.ERROR, state.lastOutcome());
    assertTrue(hot().verify().ok(), hot().verify().reason());
    System.out.printf("ProviderOutageEndToEndTest: connection refused -> the turn names %s after %d ms"
        + " (%d classify + %d degraded attempts)%n", endpoint, ms, classify.size(), degraded.size());

    TurnResult again = plane.client.turn(sid, "are you there?");
    assertEquals(TurnOutcome.ERROR, again.outcome(), "the next turn gets an answer too: " + again);
    assertEquals(2, again.turn());
  }

  @Test
  void degradedCallWhileTheBreakerIsOpen_answersUnavailableAtOnce_insteadOfWaitingOutTheCooldown() throws Exception {
    startPlane(closedPortUrl(), Map.of("CP_BREAKER_FAILURES", "2",
        "CP_BREAKER_COOLDOWN_MS", String.valueOf(LONG_COOLDOWN_MS)));
    String sid = plane.client.startSession("ADMIN");

    long start = System.nanoTime();
    TurnResult r = plane.client.turn(sid, "hello");
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertTrue(r.response().contains("temporarily unavailable"), r.response());
    assertTrue(ms < LONG_COOLDOWN_MS / 2, "the user waited " + ms + " ms for a provider the breaker knows is down");
    List<LedgerEntry> refusedDegraded = ofType(sid, "PROMPT_REJECTED").stream()
        .filter(e -> "PRC-DEGRADED-001".equals(e.metaText("contract_id"))).toList();
    assertEquals(1, refusedDegraded.size(), "the degraded call was refused by the open breaker, once");
    assertEquals("circuit_open", refusedDegraded.get(0).metaText("error_code"));
    assertEquals(1, ofType(sid, "DEGRADATION").size());
  }

  private LedgerStream hot() {
    return plane.runtime.ledgers().hot();
  }

  private List<LedgerEntry> ofType(String sid, String type) {
    return hot().bySession(sid).stream().filter(e -> e.eventType().equals(type)).toList();
  }

  private List<LedgerEntry> exchanges(String sid, String contract) {
    return ofType(sid, "EXCHANGE").stream().filter(e -> contract.equals(e.metaText("contract_id"))).toList();
  }
}
