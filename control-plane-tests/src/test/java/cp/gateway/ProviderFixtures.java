package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.function.Executable;

/** Shared settings, requests and assertions for provider tests against MockWebServer. */
public final class ProviderFixtures {
  /** Long enough that a healthy local round trip never trips it, even on a loaded CI host. */
  public static final Duration TEST_READ_TIMEOUT = Duration.ofSeconds(5);
  /** Short, for the tests that wait for a timeout on purpose. */
  public static final Duration SHORT_READ_TIMEOUT = Duration.ofMillis(300);
  public static final Duration TEST_CONNECT_TIMEOUT = Duration.ofSeconds(1);
  /** The instant HTTP-date retry-after values are measured from. */
  public static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");
  public static final Clock FIXED_CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  public static final String TEST_KEY = "sk-test-key-0001";

  private ProviderFixtures() {}

  /** Settings pointing at {@code base}, with test timeouts. */
  public static ProviderSettings settings(URI base, Secret key, String model) {
    return new ProviderSettings(base, key, model, TEST_CONNECT_TIMEOUT, TEST_READ_TIMEOUT,
        ProviderSettings.DEFAULT_ANTHROPIC_VERSION);
  }

  public static URI base(MockWebServer server) {
    return server.url("/").uri();
  }

  /** A URL on a port nothing listens on (bound once, then released). */
  public static URI closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }
  }

  public static PromptRequest.Builder request() {
    return PromptRequest.builder()
        .contractId("PRC-TEST-001")
        .sessionId("SES-1")
        .maxTokens(256)
        .messages(List.of(Message.user("hello")));
  }

  public static ToolDefinition listPackagesTool() {
    return new ToolDefinition("list_packages", "List installed packages",
        Json.parse("{\"type\":\"object\",\"properties\":{\"prefix\":{\"type\":\"string\"}}}"));
  }

  public static MockResponse json(int status, String body) {
    return new MockResponse.Builder().code(status).setHeader("content-type", "application/json").body(body).build();
  }

  public static MockResponse.Builder jsonBuilder(int status, String body) {
    return new MockResponse.Builder().code(status).setHeader("content-type", "application/json").body(body);
  }

  /** Runs {@code call}, expecting a ProviderException of {@code kind}, and returns it. */
  public static ProviderException failsWith(ProviderErrorKind kind, Executable call) {
    ProviderException e = assertThrows(ProviderException.class, call);
    assertEquals(kind, e.kind(), () -> "wrong kind; message: " + e.getMessage());
    assertEquals(kind.retryable(), e.retryable());
    return e;
  }

  /** JSON text compared as trees, so key order and whitespace do not matter. */
  public static void assertJson(String expected, String actual) {
    JsonNode want = Json.parse(expected);
    JsonNode got = Json.parse(actual);
    assertEquals(Json.pretty(Json.sorted(want)), Json.pretty(Json.sorted(got)));
  }
}
