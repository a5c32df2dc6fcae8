package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Provider faults through a whole session: the real runtime ({@code CP_PROVIDER=anthropic}, the
 * gateway, its circuit breaker, HO1's activities, HO2, the session's degradation) against a local
 * fake server speaking the Messages API. Each fault of DESIGN.md §6 hits the turn's first LLM
 * call (classify): retryable ones (429, 529, 500, 502, 503, a read timeout) are retried by
 * Temporal and the turn succeeds; the others (400, 401, 403, a spend limit) are not retried, the
 * supervisor fails and the session answers degraded. Every attempt leaves an EXCHANGE record
 * that says what happened.
 */
class ProviderFaultsEndToEndTest extends FaultyAnthropicPlaneTest {
  /** Short retries, so a retried turn takes milliseconds; a retry-after must stand out against them. */
  static final Map<String, String> FAST_RETRIES = Map.of(
      "CP_RETRY_INITIAL_MS", "20", "CP_RETRY_MAX_MS", "200", "CP_LLM_MAX_ATTEMPTS", "3",
      "CP_DEGRADED_MAX_ATTEMPTS", "2", "CP_HEARTBEAT_TIMEOUT_MS", "2000");
  /** A stalled answer becomes a read timeout this fast. */
  static final String READ_TIMEOUT_MS = "500";
  /** Far above what these tests cause: the breaker has its own test (ProviderOutageEndToEndTest). */
  static final String BREAKER_NEVER_OPENS = "1000";
  /** The retry-after the rate-limit test sends, in seconds, and the slack allowed above it. */
  static final int RETRY_AFTER_SECONDS = 1;
  static final long RETRY_AFTER_SLACK_MS = 2_500;


  @BeforeAll
  void start(@org.junit.jupiter.api.io.TempDir Path home) throws Exception {
    startPlane(home, Map.of("CP_BREAKER_FAILURES", BREAKER_NEVER_OPENS, "CP_HTTP_READ_TIMEOUT_MS", READ_TIMEOUT_MS));
  }

  /** The environment of a plane whose provider is the fake Anthropic server at {@code baseUrl}. */
  static Map<String, String> anthropicEnv(Path home, String baseUrl, Map<String, String> extra) {
    Map<String, String> env = PlaneFixture.env(home, FAST_RETRIES);
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", "test-key");
    env.put("ANTHROPIC_BASE_URL", baseUrl);
    env.putAll(extra);
    return env;
  }

  /** A fault the first classify call gets, and what its EXCHANGE record must say. */
  record Fault(String name, Supplier<MockResponse> response, String errorCode, int httpStatus, String outcome) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Fault> retryable() {
    return Stream.of(
        new Fault("429 rate limited", () -> FaultyAnthropic.error(429, "rate_limit_error",
            "Number of request tokens has exceeded your per-minute rate limit"), "rate_limited", 429, "error"),
        new Fault("529 overloaded", () -> FaultyAnthropic.error(529, "overloaded_error", "Overloaded"),
            "overloaded", 529, "error"),
        new Fault("500 api error", () -> FaultyAnthropic.error(500, "api_error", "Internal server error"),
            "server_error", 500, "error"),
        new Fault("502 from a proxy", () -> new MockResponse.Builder().code(502).setHeader("content-type", "text/html")
            .body("<html><body><h1>502 Bad Gateway</h1></body></html>").build(), "server_error", 502, "error"),
        new Fault("503 unavailable", () -> FaultyAnthropic.error(503, "api_error", "Service unavailable"),
            "server_error", 503, "error"),
        new Fault("read timeout", () -> new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE)
            .build(), "timeout", 0, "timeout"));
  }

  static Stream<Fault> nonRetryable() {
    return Stream.of(
        new Fault("400 invalid request", () -> FaultyAnthropic.error(400, "invalid_request_error",
            "messages: roles must alternate"), "bad_request", 400, "error"),
        new Fault("401 bad key", () -> FaultyAnthropic.error(401, "authentication_error", "invalid x-api-key"),
            "authentication", 401, "error"),
        new Fault("403 no permission", () -> FaultyAnthropic.error(403, "permission_error",
            "Your API key does not have permission to use the specified resource."), "permission", 403, "error"),
        new Fault("429 spend limit", () -> FaultyAnthropic.error(429, "rate_limit_error",
            "This request would exceed your organization's monthly spend limit."), "quota_exceeded", 429, "error"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("retryable")
  void retryableFault_isRetriedByTemporal_andTheTurnSucceeds(Fault fault) {
    model.failClassify(List.of(fault.response()));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), () -> fault + ": " + r);
    assertEquals(FaultyAnthropic.ANSWER, r.response());
    assertEquals(2, model.count(FaultyAnthropic.CLASSIFY), "the failed classify call was sent once more");
    assertEquals(0, model.count(FaultyAnthropic.DEGRADED), "no degradation");
    List<LedgerEntry> classify = exchanges(sid, "PRC-CLASSIFY-001");
    assertEquals(2, classify.size(), "one EXCHANGE per attempt: " + classify);
    assertFailedAttempt(classify.get(0), fault, 1);
    assertEquals("success", classify.get(1).metaText("outcome"));
    assertEquals(2, classify.get(1).meta("attempt").asInt());
    assertEquals(classify.get(0).metaText("activity_id"), classify.get(1).metaText("activity_id"),
        "both attempts belong to one activity");
    assertEquals(0, hot().bySession(sid).stream().filter(e -> e.eventType().equals("DEGRADATION")).count());
    assertTrue(hot().verify().ok(), hot().verify().reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nonRetryable")
  void nonRetryableFault_isNotRetried_theSessionDegradesToOneDirectCall(Fault fault) {
    model.failClassify(List.of(fault.response()));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.DEGRADED, r.outcome(), () -> fault + ": " + r);
    assertEquals(FaultyAnthropic.DEGRADED_ANSWER, r.response());
    assertEquals(1, model.count(FaultyAnthropic.CLASSIFY), "a non-retryable failure is sent once");
    assertEquals(0, model.count(FaultyAnthropic.SYNTHESIZE));
    assertEquals(1, model.count(FaultyAnthropic.DEGRADED), "one direct call under the degraded contract");
    List<LedgerEntry> classify = exchanges(sid, "PRC-CLASSIFY-001");
    assertEquals(1, classify.size(), "one EXCHANGE for the one attempt: " + classify);
    assertFailedAttempt(classify.get(0), fault, 1);
    List<LedgerEntry> degradations = ofType(sid, "DEGRADATION");
    assertEquals(1, degradations.size());
    String why = degradations.get(0).metaText("error_message");
    assertTrue(why.contains("gateway_error") && why.contains(fault.errorCode().equals("quota_exceeded")
        ? "spend limit" : String.valueOf(fault.httpStatus())), "DEGRADATION says what failed: " + why);
    assertEquals(1, exchanges(sid, "PRC-DEGRADED-001").size(), "the degraded call's EXCHANGE");
    assertTrue(hot().verify().ok(), hot().verify().reason());
  }

  @Test
  void rateLimitWithRetryAfter_theRetryWaitsAboutThatLong() {
    model.failClassify(List.of(() -> FaultyAnthropic.errorBuilder(429, "rate_limit_error", "slow down")
        .setHeader("retry-after", String.valueOf(RETRY_AFTER_SECONDS)).build()));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    List<FaultyAnthropic.Seen> classify = model.of(FaultyAnthropic.CLASSIFY);
    assertEquals(2, classify.size());
    long waitedMs = TimeUnit.NANOSECONDS.toMillis(classify.get(1).atNanos() - classify.get(0).atNanos());
    System.out.printf("ProviderFaultsEndToEndTest: 429 retry-after %d s -> retried after %d ms (backoff alone: 20 ms)%n",
        RETRY_AFTER_SECONDS, waitedMs);
    assertTrue(waitedMs >= RETRY_AFTER_SECONDS * 1000L, "retried after " + waitedMs + " ms, before the retry-after");
    assertTrue(waitedMs < RETRY_AFTER_SECONDS * 1000L + RETRY_AFTER_SLACK_MS, "retried only after " + waitedMs + " ms");
    LedgerEntry failed = exchanges(sid, "PRC-CLASSIFY-001").get(0);
    assertEquals(RETRY_AFTER_SECONDS * 1000L, failed.meta("retry_after_ms").asLong(),
        "the EXCHANGE records the delay the provider asked for");
  }

  private static void assertFailedAttempt(LedgerEntry e, Fault fault, int attempt) {
    assertEquals(fault.outcome(), e.metaText("outcome"), e::toString);
    assertEquals(fault.errorCode(), e.metaText("error_code"), e::toString);
    if (fault.httpStatus() > 0) {
      assertEquals(fault.httpStatus(), e.meta("http_status").asInt(), e::toString);
    }
    assertEquals(attempt, e.meta("attempt").asInt(), e::toString);
    assertEquals(0, e.meta("input_tokens").asInt(), "a failed call costs nothing");
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
