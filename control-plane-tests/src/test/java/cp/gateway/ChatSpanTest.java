package cp.gateway;

import static cp.gateway.GatewayHarness.providerError;
import static cp.gateway.GatewayHarness.reply;
import static cp.gateway.GatewayHarness.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.observability.PlaneSpans;
import cp.observability.Telemetry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: the gateway's GenAI {@code chat} span and LLM metrics, one round trip at a time: a
 * failure is {@code error.type} (the failure code, never the provider's message) pointing at the
 * error EXCHANGE; prompt and response text appear only with the content opt-in; a round trip
 * answered from the ledger makes no span.
 */
class ChatSpanTest {
  @TempDir Path dir;
  private GatewayHarness h;
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void start() {
    h = new GatewayHarness(dir);
  }

  @AfterEach
  void stop() {
    sdk.close();
    h.verifyChainAndClose();
  }

  @Test
  void aFailedRoundTrip_isAnErrorSpanWithTheFailureCode_pointingAtTheErrorExchange_withoutTheMessage() {
    Gateway gateway = h.gatewayWith(h.provider, Telemetry.of(sdk, registry, false));
    String secret = "sk-echoed-back-by-the-provider";
    h.provider.fails(providerError(ProviderErrorKind.SERVER_ERROR, 500, null, "upstream said " + secret));
    org.junit.jupiter.api.Assertions.assertThrows(GatewayException.class, () -> gateway.route(request().build()));

    SpanData s = only();
    assertEquals(SpanKind.CLIENT, s.getKind());
    assertEquals(StatusCode.ERROR, s.getStatus().getStatusCode());
    assertEquals("server_error", s.getAttributes().get(PlaneSpans.ERROR_TYPE));
    LedgerEntry exchange = h.ledger.byEventType("EXCHANGE").get(0);
    assertEquals(exchange.entryId(), s.getAttributes().get(PlaneSpans.LEDGER_ENTRY_ID));
    assertEquals(exchange.hash(), s.getAttributes().get(PlaneSpans.LEDGER_HASH));
    assertFalse((s.toString() + s.getStatus().getDescription()).contains(secret), "no provider message in the span");
    assertEquals(1.0, registry.get("cp.llm.round.trips").tag("outcome", "server_error").counter().count());
  }

  @Test
  void promptAndResponseText_areOnTheSpanOnlyWithTheOptIn() {
    Gateway plainGateway = h.gatewayWith(h.provider, Telemetry.of(sdk, null, false));
    h.provider.answers(reply("{\"response_text\":\"three packages\"}"));
    plainGateway.route(request().build());
    SpanData plain = only();
    assertNull(plain.getAttributes().get(PlaneSpans.INPUT_MESSAGES));
    assertNull(plain.getAttributes().get(PlaneSpans.OUTPUT_MESSAGES));
    assertFalse(plain.getAttributes().toString().contains(GatewayHarness.QUESTION));
    assertFalse(plain.getAttributes().toString().contains("three packages"));
    assertEquals(GatewayHarness.MODEL, plain.getAttributes().get(PlaneSpans.RESPONSE_MODEL));
    assertTrue(plain.getName().startsWith("chat"), plain.getName());

    spans.reset();
    Gateway capturing = h.gatewayWith(h.provider, Telemetry.of(sdk, null, true));
    h.provider.answers(reply("{\"response_text\":\"three packages\"}"));
    capturing.route(request().build());
    SpanData captured = only();
    assertTrue(captured.getAttributes().get(PlaneSpans.INPUT_MESSAGES).contains(GatewayHarness.QUESTION));
    assertTrue(captured.getAttributes().get(PlaneSpans.OUTPUT_MESSAGES).contains("three packages"));
  }

  @Test
  void withTelemetryOff_nothingIsRecordedAndTheRouteIsUnchanged() {
    h.provider.answers(reply("{\"response_text\":\"x\"}"));
    h.gateway.route(request().build()); // the harness's gateway: Telemetry.NOOP
    assertEquals(List.of(), spans.getFinishedSpanItems());
    assertTrue(registry.getMeters().isEmpty());
  }

  private SpanData only() {
    List<SpanData> all = spans.getFinishedSpanItems();
    assertEquals(1, all.size(), all.toString());
    return all.get(0);
  }
}
