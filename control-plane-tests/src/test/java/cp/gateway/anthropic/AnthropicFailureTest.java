package cp.gateway.anthropic;

import static cp.gateway.ProviderFixtures.FIXED_CLOCK;
import static cp.gateway.ProviderFixtures.SHORT_READ_TIMEOUT;
import static cp.gateway.ProviderFixtures.TEST_CONNECT_TIMEOUT;
import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.TEST_READ_TIMEOUT;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.closedPort;
import static cp.gateway.ProviderFixtures.failsWith;
import static cp.gateway.ProviderFixtures.json;
import static cp.gateway.ProviderFixtures.jsonBuilder;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * Every way a Messages API call fails, with Anthropic's real error bodies: the kind, whether it
 * is retryable, the retry-after delay, and that exactly one request reached the server.
 */
class AnthropicFailureTest {
  @StartStop final MockWebServer server = new MockWebServer();

  private static String error(String type, String message) {
    return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message
        + "\"},\"request_id\":\"req_011CSHoEeqs5C35K2UUqR7Fy\"}";
  }

  private AnthropicProvider provider(URI base, Duration readTimeout) {
    ProviderSettings s = settings(base, Secret.of(TEST_KEY), ProviderSettings.DEFAULT_ANTHROPIC_MODEL)
        .withTimeouts(TEST_CONNECT_TIMEOUT, readTimeout);
    return new AnthropicProvider(s, FIXED_CLOCK);
  }

  /** Serves {@code response} to one call and checks the classified failure. */
  private ProviderException answersWith(MockResponse response, ProviderErrorKind kind) {
    server.enqueue(response);
    AnthropicProvider provider = provider(base(server), TEST_READ_TIMEOUT);
    ProviderException e = failsWith(kind, () -> provider.send(request().build()));
    assertEquals(1, server.getRequestCount(), "the client must not retry on its own");
    assertTrue(e.getMessage().startsWith("anthropic: "), e.getMessage());
    return e;
  }

  @Test
  void http429_rateLimited_retryable_withRetryAfterSeconds() {
    ProviderException e = answersWith(jsonBuilder(429, error("rate_limit_error",
        "This request would exceed the rate limit for your organization of 50,000 input tokens per minute."))
        .setHeader("retry-after", "30").build(), ProviderErrorKind.RATE_LIMITED);

    assertEquals(429, e.httpStatus());
    assertEquals(Optional.of(Duration.ofSeconds(30)), e.retryAfter());
    assertEquals(Optional.of("rate_limit_error"), e.errorType());
    assertTrue(e.getMessage().contains("HTTP 429 RATE_LIMITED (retryable, rate_limit_error): This request would"),
        e.getMessage());
  }

  @Test
  void http429_retryAfterHttpDate_isMeasuredFromNow() {
    ProviderException e = answersWith(jsonBuilder(429, error("rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit"))
        .setHeader("retry-after", "Wed, 01 Jan 2025 00:00:45 GMT").build(), ProviderErrorKind.RATE_LIMITED);

    assertEquals(Optional.of(Duration.ofSeconds(45)), e.retryAfter());
  }

  @Test
  void http429_retryAfterMs_winsOverSeconds() {
    ProviderException e = answersWith(jsonBuilder(429, error("rate_limit_error",
        "Rate limited")).setHeader("retry-after", "2").setHeader("retry-after-ms", "1500").build(), ProviderErrorKind.RATE_LIMITED);

    assertEquals(Optional.of(Duration.ofMillis(1500)), e.retryAfter());
  }

  @Test
  void http529_overloaded_retryable() {
    ProviderException e = answersWith(json(529, error("overloaded_error", "Overloaded")), ProviderErrorKind.OVERLOADED);

    assertEquals(529, e.httpStatus());
    assertEquals(Optional.empty(), e.retryAfter());
  }

  @Test
  void http500_apiError_serverError() {
    answersWith(json(500, error("api_error", "Internal server error")), ProviderErrorKind.SERVER_ERROR);
  }

  @Test
  void http502_htmlFromProxy_serverError_keepsBodySnippet() {
    ProviderException e = answersWith(new MockResponse.Builder().code(502)
        .setHeader("content-type", "text/html")
        .body("<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>").build(), ProviderErrorKind.SERVER_ERROR);

    assertTrue(e.getMessage().contains("502 Bad Gateway"), e.getMessage());
  }

  @Test
  void http503_withRetryAfterZero_isNotResentByOkHttp() {
    server.enqueue(jsonBuilder(503, error("api_error", "Service unavailable")).setHeader("retry-after", "0").build());
    server.enqueue(json(200, "{\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}"));
    AnthropicProvider provider = provider(base(server), TEST_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.SERVER_ERROR, () -> provider.send(request().build()));

    assertEquals(1, server.getRequestCount(), "OkHttp re-sends 503 Retry-After: 0 unless shielded");
    assertEquals(Optional.of(Duration.ZERO), e.retryAfter());
  }

  @Test
  void http504_timeoutError_serverError() {
    answersWith(json(504, error("timeout_error", "Request timed out")), ProviderErrorKind.SERVER_ERROR);
  }

  @Test
  void http400_invalidRequest_notRetryable() {
    ProviderException e = answersWith(json(400, error("invalid_request_error",
        "messages: roles must alternate between \\\"user\\\" and \\\"assistant\\\"")), ProviderErrorKind.BAD_REQUEST);

    assertEquals(Optional.of("invalid_request_error"), e.errorType());
  }

  @Test
  void http400_creditBalanceTooLow_quotaExceeded_notRetryable() {
    answersWith(json(400, error("invalid_request_error",
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.")), ProviderErrorKind.QUOTA_EXCEEDED);
  }

  @Test
  void http400_workspaceSpendLimit_quotaExceeded() {
    answersWith(json(400, error("invalid_request_error",
        "You have reached your specified workspace API usage limits. You will regain access on 2025-02-01 at 00:00 UTC.")), ProviderErrorKind.QUOTA_EXCEEDED);
  }

  @Test
  void http402_billingError_quotaExceeded() {
    answersWith(json(402, error("billing_error", "There is an issue with your billing")), ProviderErrorKind.QUOTA_EXCEEDED);
  }

  @Test
  void http401_authentication_notRetryable() {
    answersWith(json(401, error("authentication_error", "invalid x-api-key")), ProviderErrorKind.AUTHENTICATION);
  }

  @Test
  void http403_permission_notRetryable() {
    answersWith(json(403, error("permission_error",
        "Your API key does not have permission to use the specified resource.")), ProviderErrorKind.PERMISSION);
  }

  @Test
  void http404_notFound_notRetryable() {
    answersWith(json(404, error("not_found_error", "model: claude-nonexistent-model")), ProviderErrorKind.NOT_FOUND);
  }

  @Test
  void http413_requestTooLarge_notRetryable() {
    answersWith(json(413, error("request_too_large",
        "Request exceeds the maximum allowed number of bytes.")), ProviderErrorKind.REQUEST_TOO_LARGE);
  }

  @Test
  void http307_redirect_isNotFollowed() {
    ProviderException e = answersWith(new MockResponse.Builder().code(307)
        .setHeader("location", "https://elsewhere.example/v1/messages").build(), ProviderErrorKind.UNEXPECTED_STATUS);

    assertTrue(e.getMessage().contains("https://elsewhere.example/v1/messages"), e.getMessage());
  }

  @Test
  void http200_malformedBody_invalidResponse_retryable() {
    answersWith(json(200, "{\"type\":\"message\",\"content\":"), ProviderErrorKind.INVALID_RESPONSE);
  }

  @Test
  void http200_withoutContent_invalidResponse() {
    answersWith(json(200, "{\"type\":\"message\",\"stop_reason\":\"end_turn\"}"), ProviderErrorKind.INVALID_RESPONSE);
  }

  @Test
  void http200_toolUseWithoutId_invalidResponse() {
    answersWith(json(200,
        "{\"content\":[{\"type\":\"tool_use\",\"name\":\"x\",\"input\":{}}],\"stop_reason\":\"tool_use\"}"), ProviderErrorKind.INVALID_RESPONSE);
  }

  @Test
  void stalledResponseHeaders_readTimeout_retryable() {
    server.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());
    AnthropicProvider provider = provider(base(server), SHORT_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.TIMEOUT, () -> provider.send(request().build()));

    assertEquals(0, e.httpStatus());
    assertEquals(1, server.getRequestCount());
    assertTrue(e.getMessage().contains("read timeout 300 ms"), e.getMessage());
  }

  @Test
  void stalledBodyAfter200_readTimeout_retryable() {
    server.enqueue(jsonBuilder(200, "{\"content\":[]}").onResponseBody(SocketEffect.Stall.INSTANCE).build());
    AnthropicProvider provider = provider(base(server), SHORT_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.TIMEOUT, () -> provider.send(request().build()));

    assertEquals(200, e.httpStatus());
    assertEquals(1, server.getRequestCount());
  }

  @Test
  void tricklingBody_callTimeout_retryable() {
    // Each 1 KiB chunk arrives within the read timeout, but the whole body would take ~8 s;
    // the call timeout (connect 1 s + read 1 s) must end it. The request itself is < 1 KiB,
    // so the server's throttle (which also applies to reading the request) does not delay it.
    server.enqueue(jsonBuilder(200, "{\"content\":[],\"padding\":\"" + "x".repeat(20 * 1024) + "\"}")
        .throttleBody(1024, 400, TimeUnit.MILLISECONDS).build());
    AnthropicProvider provider = provider(base(server), Duration.ofSeconds(1));

    long start = System.nanoTime();
    ProviderException e = failsWith(ProviderErrorKind.TIMEOUT, () -> provider.send(request().build()));

    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < 5_000, "call timeout must cut the trickle short, took " + millis + " ms");
    assertTrue(e.getMessage().contains("call timeout 2000 ms"), e.getMessage());
    assertEquals(1, server.getRequestCount());
  }

  @Test
  void connectionRefused_unreachable_namesTheEndpointAndTheCause_withinTheConnectBudget() throws Exception {
    AnthropicProvider provider = provider(closedPort(), SHORT_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.PROVIDER_UNREACHABLE, () -> provider.send(request().build()));

    assertEquals(0, e.httpStatus());
    assertTrue(e.getMessage().contains("endpoint 127.0.0.1:"), e.getMessage());
    assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
    assertTrue(e.getMessage().contains("ANTHROPIC_BASE_URL"), e.getMessage());
    assertTrue(!e.getMessage().contains("Exception"), "no Java class names: " + e.getMessage());
    assertEquals(java.util.Optional.of(cp.gateway.ProviderSettings.DEFAULT_CONNECT_ATTEMPTS), e.attemptLimit());
  }

  @Test
  void nonPositiveMaxTokens_badRequest_nothingSent() {
    AnthropicProvider provider = provider(base(server), SHORT_READ_TIMEOUT);

    failsWith(ProviderErrorKind.BAD_REQUEST, () -> provider.send(request().maxTokens(0).build()));

    assertEquals(0, server.getRequestCount());
  }
}
