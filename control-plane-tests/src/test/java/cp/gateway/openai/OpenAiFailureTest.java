package cp.gateway.openai;

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
 * Every way a chat-completions call fails, with OpenAI's (and compatible servers') real error
 * bodies: kind, retryability, retry-after, and exactly one request at the server.
 */
class OpenAiFailureTest {
  @StartStop final MockWebServer server = new MockWebServer();

  private static String error(String message, String type, String code) {
    return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\",\"param\":null,\"code\":"
        + (code == null ? "null" : "\"" + code + "\"") + "}}";
  }

  private OpenAiProvider provider(URI base, Duration readTimeout) {
    ProviderSettings s = settings(base, Secret.of(TEST_KEY), ProviderSettings.DEFAULT_OPENAI_MODEL)
        .withTimeouts(TEST_CONNECT_TIMEOUT, readTimeout);
    return new OpenAiProvider(s, FIXED_CLOCK);
  }

  /** Serves {@code response} to one call and checks the classified failure. */
  private ProviderException answersWith(MockResponse response, ProviderErrorKind kind) {
    server.enqueue(response);
    OpenAiProvider provider = provider(base(server), TEST_READ_TIMEOUT);
    ProviderException e = failsWith(kind, () -> provider.send(request().build()));
    assertEquals(1, server.getRequestCount(), "the client must not retry on its own");
    assertTrue(e.getMessage().startsWith("openai: "), e.getMessage());
    return e;
  }

  @Test
  void http429_rateLimitExceeded_retryable_withRetryAfterSeconds() {
    ProviderException e = answersWith(jsonBuilder(429, error(
        "Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min (TPM): Limit 200000,"
            + " Used 199000, Requested 1500. Please try again in 450ms.", "tokens", "rate_limit_exceeded"))
        .setHeader("retry-after", "1").build(), ProviderErrorKind.RATE_LIMITED);

    assertEquals(Optional.of(Duration.ofSeconds(1)), e.retryAfter());
    assertEquals(Optional.of("rate_limit_exceeded"), e.errorCode());
  }

  @Test
  void http429_freeTierRateLimitMentioningBilling_staysRateLimited() {
    answersWith(json(429, error("Rate limit reached for default-gpt-3.5-turbo in organization org-abc on requests"
        + " per min. Limit: 3 / min. Please add a payment method to your account to increase your rate limit."
        + " Visit https://platform.openai.com/account/billing to add a payment method.", "requests",
        "rate_limit_exceeded")), ProviderErrorKind.RATE_LIMITED);
  }

  @Test
  void http429_retryAfterHttpDate_isMeasuredFromNow() {
    ProviderException e = answersWith(jsonBuilder(429, error("Rate limit reached", "requests", "rate_limit_exceeded"))
        .setHeader("retry-after", "Wed, 01 Jan 2025 00:02:00 GMT").build(), ProviderErrorKind.RATE_LIMITED);

    assertEquals(Optional.of(Duration.ofMinutes(2)), e.retryAfter());
  }

  @Test
  void http429_insufficientQuota_quotaExceeded_notRetryable() {
    ProviderException e = answersWith(json(429, error("You exceeded your current quota, please check your plan and"
        + " billing details. For more information on this error, read the docs:"
        + " https://platform.openai.com/docs/guides/error-codes/api-errors.", "insufficient_quota",
        "insufficient_quota")), ProviderErrorKind.QUOTA_EXCEEDED);

    assertEquals(429, e.httpStatus());
    assertEquals(Optional.of("insufficient_quota"), e.errorType());
  }

  @Test
  void http400_billingHardLimit_quotaExceeded() {
    answersWith(json(400, error("Billing hard limit has been reached", "invalid_request_error",
        "billing_hard_limit_reached")), ProviderErrorKind.QUOTA_EXCEEDED);
  }

  @Test
  void http529_overloaded_retryable() {
    answersWith(json(529, error("Overloaded", "server_error", null)), ProviderErrorKind.OVERLOADED);
  }

  @Test
  void http500_serverError_retryable() {
    answersWith(json(500, error("The server had an error while processing your request. Sorry about that!",
        "server_error", null)), ProviderErrorKind.SERVER_ERROR);
  }

  @Test
  void http500_llamaCppNumericCode_serverError() {
    ProviderException e = answersWith(json(500,
        "{\"error\":{\"code\":500,\"message\":\"failed to load model\",\"type\":\"server_error\"}}"),
        ProviderErrorKind.SERVER_ERROR);

    assertEquals(Optional.of("500"), e.errorCode());
    assertTrue(e.getMessage().contains("failed to load model"), e.getMessage());
  }

  @Test
  void http502_htmlFromProxy_serverError() {
    ProviderException e = answersWith(new MockResponse.Builder().code(502).setHeader("content-type", "text/html")
        .body("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>").build(),
        ProviderErrorKind.SERVER_ERROR);

    assertTrue(e.getMessage().contains("502 Bad Gateway"), e.getMessage());
  }

  @Test
  void http503_overloadedEngine_serverError_notResentOnRetryAfterZero() {
    server.enqueue(jsonBuilder(503, error("The engine is currently overloaded, please try again later.",
        "server_error", null)).setHeader("retry-after", "0").build());
    server.enqueue(json(200, "{\"choices\":[{\"message\":{\"content\":\"late\"}}]}"));
    OpenAiProvider provider = provider(base(server), TEST_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.SERVER_ERROR, () -> provider.send(request().build()));

    assertEquals(1, server.getRequestCount());
    assertEquals(Optional.of(Duration.ZERO), e.retryAfter());
  }

  @Test
  void http400_contextLengthExceeded_badRequest() {
    answersWith(json(400, error("This model's maximum context length is 128000 tokens. However, your messages"
        + " resulted in 130000 tokens.", "invalid_request_error", "context_length_exceeded")),
        ProviderErrorKind.BAD_REQUEST);
  }

  @Test
  void http400_vllmTopLevelError_badRequest() {
    ProviderException e = answersWith(json(400, "{\"object\":\"error\",\"message\":\"max_tokens must be at least 1\","
        + "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}"), ProviderErrorKind.BAD_REQUEST);

    assertTrue(e.getMessage().contains("max_tokens must be at least 1"), e.getMessage());
  }

  @Test
  void http401_invalidApiKey_authentication() {
    answersWith(json(401, error("Incorrect API key provided: sk-test***0001. You can find your API key at"
        + " https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key")),
        ProviderErrorKind.AUTHENTICATION);
  }

  @Test
  void http403_unsupportedRegion_permission() {
    answersWith(json(403, error("Country, region, or territory not supported", "request_forbidden",
        "unsupported_country_region_territory")), ProviderErrorKind.PERMISSION);
  }

  @Test
  void http404_modelNotFound_notFound() {
    answersWith(json(404, error("The model `gpt-9` does not exist or you do not have access to it.",
        "invalid_request_error", "model_not_found")), ProviderErrorKind.NOT_FOUND);
  }

  @Test
  void http404_ollamaModelNotPulled_notFound() {
    ProviderException e = answersWith(json(404, error("model \\\"llama9\\\" not found, try pulling it first",
        "api_error", null)), ProviderErrorKind.NOT_FOUND);

    assertTrue(e.getMessage().contains("try pulling it first"), e.getMessage());
  }

  @Test
  void http413_requestTooLarge_fromProxy() {
    answersWith(new MockResponse.Builder().code(413).setHeader("content-type", "text/html")
        .body("<html><body><h1>413 Request Entity Too Large</h1></body></html>").build(),
        ProviderErrorKind.REQUEST_TOO_LARGE);
  }

  @Test
  void http200_malformedBody_invalidResponse_retryable() {
    answersWith(json(200, "<html>upstream returned a login page</html>"), ProviderErrorKind.INVALID_RESPONSE);
  }

  @Test
  void http200_noChoices_invalidResponse() {
    answersWith(json(200, "{\"id\":\"chatcmpl-1\",\"choices\":[]}"), ProviderErrorKind.INVALID_RESPONSE);
  }

  @Test
  void stalledResponseHeaders_readTimeout_retryable() {
    server.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());
    OpenAiProvider provider = provider(base(server), SHORT_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.TIMEOUT, () -> provider.send(request().build()));

    assertEquals(1, server.getRequestCount());
    assertEquals(0, e.httpStatus());
  }

  @Test
  void tricklingBody_callTimeout_retryable() {
    server.enqueue(jsonBuilder(200, "{\"choices\":[],\"padding\":\"" + "x".repeat(20 * 1024) + "\"}")
        .throttleBody(1024, 400, TimeUnit.MILLISECONDS).build());
    OpenAiProvider provider = provider(base(server), Duration.ofSeconds(1));

    failsWith(ProviderErrorKind.TIMEOUT, () -> provider.send(request().build()));

    assertEquals(1, server.getRequestCount());
  }

  @Test
  void connectionRefused_unreachable_namesTheEndpointAndTheCause_withinTheConnectBudget() throws Exception {
    OpenAiProvider provider = provider(closedPort(), SHORT_READ_TIMEOUT);

    ProviderException e = failsWith(ProviderErrorKind.PROVIDER_UNREACHABLE, () -> provider.send(request().build()));

    assertEquals(0, e.httpStatus());
    assertTrue(e.getMessage().contains("endpoint 127.0.0.1:"), e.getMessage());
    assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
    assertTrue(e.getMessage().contains("OPENAI_BASE_URL"), e.getMessage());
    assertTrue(!e.getMessage().contains("Exception"), "no Java class names: " + e.getMessage());
    assertEquals(java.util.Optional.of(cp.gateway.ProviderSettings.DEFAULT_CONNECT_ATTEMPTS), e.attemptLimit());
  }
}
