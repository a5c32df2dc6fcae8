package cp.gateway;

import static cp.gateway.ProviderFixtures.FIXED_CLOCK;
import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.failsWith;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.anthropic.AnthropicProvider;
import cp.gateway.http.HttpLlmProvider;
import cp.gateway.openai.OpenAiProvider;
import java.net.URI;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 21: one mapping from a provider's error reply to our vocabulary ({@code ErrorReply}),
 * tested once for every API, with the real error bodies of Anthropic, OpenAI and the
 * OpenAI-compatible servers (vLLM, Ollama, llama.cpp). Each case: the API, the reply, and the
 * kind, provider type, code and message it must become.
 */
class ProviderErrorsTest {
  @StartStop final MockWebServer server = new MockWebServer();

  enum Api {
    ANTHROPIC(base -> new AnthropicProvider(settings(base, Secret.of(TEST_KEY), "claude-test"), FIXED_CLOCK)),
    OPENAI(base -> new OpenAiProvider(settings(base, Secret.of(TEST_KEY), "gpt-test"), FIXED_CLOCK));

    final Function<URI, HttpLlmProvider> provider;

    Api(Function<URI, HttpLlmProvider> provider) {
      this.provider = provider;
    }
  }

  record Case(String name, Api api, int status, String contentType, String body, ProviderErrorKind kind,
      String type, String code, String message) {
    @Override
    public String toString() {
      return api + " " + name;
    }
  }

  static String anthropic(String type, String message) {
    return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\"}}";
  }

  static String openAi(String type, String code, String message) {
    return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\",\"param\":null,\"code\":"
        + (code == null ? "null" : "\"" + code + "\"") + "}}";
  }

  static Stream<Case> cases() {
    String json = "application/json";
    return Stream.of(
        new Case("429 rate limit", Api.ANTHROPIC, 429, json, anthropic("rate_limit_error", "too many tokens"),
            ProviderErrorKind.RATE_LIMITED, "rate_limit_error", null, "too many tokens"),
        new Case("529 overloaded", Api.ANTHROPIC, 529, json, anthropic("overloaded_error", "Overloaded"),
            ProviderErrorKind.OVERLOADED, "overloaded_error", null, "Overloaded"),
        new Case("overloaded re-coded 503 by a proxy", Api.ANTHROPIC, 503, json,
            anthropic("overloaded_error", "Overloaded"), ProviderErrorKind.OVERLOADED, "overloaded_error", null, null),
        new Case("credit balance as a plain 400", Api.ANTHROPIC, 400, json, anthropic("invalid_request_error",
            "Your credit balance is too low to access the Anthropic API."), ProviderErrorKind.QUOTA_EXCEEDED,
            "invalid_request_error", null, "credit balance"),
        new Case("402 billing", Api.ANTHROPIC, 402, json, anthropic("billing_error", "billing"),
            ProviderErrorKind.QUOTA_EXCEEDED, "billing_error", null, null),
        new Case("401", Api.ANTHROPIC, 401, json, anthropic("authentication_error", "invalid x-api-key"),
            ProviderErrorKind.AUTHENTICATION, "authentication_error", null, "invalid x-api-key"),
        new Case("404 model", Api.ANTHROPIC, 404, json, anthropic("not_found_error", "model: claude-x"),
            ProviderErrorKind.NOT_FOUND, "not_found_error", null, null),
        new Case("500", Api.ANTHROPIC, 500, json, anthropic("api_error", "Internal server error"),
            ProviderErrorKind.SERVER_ERROR, "api_error", null, null),
        new Case("502 HTML from a proxy", Api.ANTHROPIC, 502, "text/html", "<html>Bad Gateway</html>",
            ProviderErrorKind.SERVER_ERROR, null, null, "Bad Gateway"),
        new Case("insufficient_quota as 429", Api.OPENAI, 429, json, openAi("insufficient_quota",
            "insufficient_quota", "You exceeded your current quota"), ProviderErrorKind.QUOTA_EXCEEDED,
            "insufficient_quota", "insufficient_quota", null),
        new Case("rate limit whose message links to billing", Api.OPENAI, 429, json, openAi("requests",
            "rate_limit_exceeded", "Rate limit reached; see https://platform.openai.com/account/billing"),
            ProviderErrorKind.RATE_LIMITED, "requests", "rate_limit_exceeded", null),
        new Case("400", Api.OPENAI, 400, json, openAi("invalid_request_error", null, "bad messages"),
            ProviderErrorKind.BAD_REQUEST, "invalid_request_error", null, "bad messages"),
        new Case("vLLM 422, message at the root", Api.OPENAI, 422, json,
            "{\"object\":\"error\",\"message\":\"max_tokens too large\",\"type\":\"BadRequestError\",\"code\":422}",
            ProviderErrorKind.BAD_REQUEST, "BadRequestError", "422", "max_tokens too large"),
        new Case("Ollama 404, error as a string", Api.OPENAI, 404, json, "{\"error\":\"model 'x' not found\"}",
            ProviderErrorKind.NOT_FOUND, null, null, "model 'x' not found"),
        new Case("llama.cpp 500, numeric code", Api.OPENAI, 500, json,
            "{\"error\":{\"code\":500,\"message\":\"slot unavailable\",\"type\":\"server_error\"}}",
            ProviderErrorKind.SERVER_ERROR, "server_error", "500", "slot unavailable"),
        new Case("302 redirect", Api.OPENAI, 302, json, "", ProviderErrorKind.UNEXPECTED_STATUS, null, null,
            "not followed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void anErrorReply_becomesOneKindOfOurVocabulary(Case c) {
    MockResponse.Builder reply = new MockResponse.Builder().code(c.status()).setHeader("content-type", c.contentType())
        .body(c.body());
    if (c.status() == 302) {
      reply.setHeader("location", "https://elsewhere.example/v1");
    }
    server.enqueue(reply.build());
    HttpLlmProvider provider = c.api().provider.apply(base(server));

    ProviderException e = failsWith(c.kind(), () -> provider.send(request().build()));

    assertEquals(1, server.getRequestCount(), "never retried by the client");
    assertEquals(c.status(), e.httpStatus());
    assertEquals(Optional.ofNullable(c.type()), e.errorType());
    assertEquals(Optional.ofNullable(c.code()), e.errorCode());
    if (c.message() != null) {
      assertTrue(e.providerMessage().contains(c.message()), e.providerMessage());
    }
    assertTrue(e.getMessage().startsWith(provider.id() + ": HTTP " + c.status() + " " + c.kind().name()),
        e.getMessage());
    assertFalse(e.getMessage().contains(TEST_KEY), "the key never appears");
  }
}
