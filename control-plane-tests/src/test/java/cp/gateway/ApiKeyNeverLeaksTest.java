package cp.gateway;

import static cp.gateway.ProviderFixtures.SHORT_READ_TIMEOUT;
import static cp.gateway.ProviderFixtures.TEST_CONNECT_TIMEOUT;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.closedPort;
import static cp.gateway.ProviderFixtures.json;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import cp.gateway.anthropic.AnthropicProvider;
import cp.gateway.openai.OpenAiProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A distinctive fake key must appear in no exception message, toString, stack trace or log line,
 * even when the server echoes it back. Exceptions end up in Temporal history and ledgers.
 */
class ApiKeyNeverLeaksTest {
  private static final String CANARY = "sk-LEAKCANARY-7f3a9c2e5b1d4086aa";

  @StartStop final MockWebServer server = new MockWebServer();

  private final Logger gatewayLogger = (Logger) LoggerFactory.getLogger("cp.gateway");
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private Level previousLevel;
  /** Everything a key could leak into, collected across the scenario. */
  private final List<String> surfaces = new ArrayList<>();

  @BeforeEach
  void captureLogs() {
    previousLevel = gatewayLogger.getLevel();
    gatewayLogger.setLevel(Level.DEBUG);
    logs.start();
    gatewayLogger.addAppender(logs);
  }

  @AfterEach
  void restoreLogs() {
    gatewayLogger.detachAppender(logs);
    gatewayLogger.setLevel(previousLevel);
  }

  @Test
  void anthropic_keyAppearsNowhere() throws Exception {
    runScenarios(s -> new AnthropicProvider(s), "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
        + "\"message\":\"invalid x-api-key: " + CANARY + "\"}}");
    assertEquals(CANARY, server.takeRequest().getHeaders().get("x-api-key"), "the key must still be sent");
  }

  @Test
  void openAi_keyAppearsNowhere() throws Exception {
    runScenarios(s -> new OpenAiProvider(s), "{\"error\":{\"message\":\"Incorrect API key provided: " + CANARY
        + ".\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}");
    assertEquals("Bearer " + CANARY, server.takeRequest().getHeaders().get("authorization"));
  }

  @Test
  void causeWhoseMessageHoldsTheKey_isReplacedByARedactedCopy() {
    ProviderException e = ProviderException.builder("test", ProviderErrorKind.CONNECTION)
        .message("failed")
        .cause(new IOException("proxy said: bad key " + CANARY))
        .redacting(Secret.of(CANARY))
        .build();

    surfaces.add(stackTrace(e));
    assertNoCanary();
    assertTrue(e.getCause().getMessage().startsWith("java.io.IOException: proxy said: bad key sk-…(masked)"),
        e.getCause().getMessage());
  }

  @Test
  void secret_printsMasked() {
    assertEquals("sk-…(masked)", Secret.of(CANARY).toString());
    assertEquals("…(masked)", Secret.of("ollama-local-token").toString());
    assertEquals("(none)", Secret.NONE.toString());
  }

  private void runScenarios(Function<ProviderSettings, LlmProvider> build, String echoingAuthError) throws Exception {
    ProviderSettings s = settings(base(server), Secret.of(CANARY), "model-x")
        .withTimeouts(TEST_CONNECT_TIMEOUT, SHORT_READ_TIMEOUT);
    LlmProvider provider = build.apply(s);
    surfaces.add(s.toString());
    surfaces.add(provider.toString());

    server.enqueue(json(401, echoingAuthError));
    server.enqueue(json(200, "{\"oops\":\"" + CANARY + "\""));
    server.enqueue(new MockResponse.Builder().code(307).setHeader("location", "https://x.example/?key=" + CANARY).build());
    server.enqueue(json(500, "<html>upstream rejected key " + CANARY + "</html>"));
    server.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());
    for (int i = 0; i < 5; i++) {
      record(assertThrows(ProviderException.class, () -> provider.send(request().build())));
    }
    URI refused = closedPort();
    LlmProvider unreachable = build.apply(s.withBaseUrl(refused));
    record(assertThrows(ProviderException.class, () -> unreachable.send(request().build())));

    assertTrue(surfaces.stream().anyMatch(t -> t.contains("sk-…(masked)")), "the echoed key is shown masked");
    assertFalse(logs.list.isEmpty(), "the providers log each round trip at debug");
    for (ILoggingEvent event : logs.list) {
      surfaces.add(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        surfaces.add(t.getMessage());
      }
    }
    assertNoCanary();
  }

  private void record(ProviderException e) {
    surfaces.add(e.getMessage());
    surfaces.add(e.toString());
    surfaces.add(e.providerMessage());
    surfaces.add(String.valueOf(e.errorType()));
    surfaces.add(String.valueOf(e.errorCode()));
    surfaces.add(stackTrace(e));
  }

  private void assertNoCanary() {
    for (String text : surfaces) {
      assertFalse(String.valueOf(text).contains(CANARY), () -> "key leaked into: " + text);
    }
  }

  private static String stackTrace(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
