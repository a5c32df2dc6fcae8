package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.Durability;
import cp.ledger.Ledger;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerOptions;
import cp.ledger.VerifyResult;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.ToolDefinition;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A gateway for tests: a real HOT ledger in a temporary directory, a {@link ScriptedProvider},
 * a manual wall clock (every provider call takes {@link #CALL_TIME}) and a manual nanosecond
 * clock for the circuit breaker, so latency and cooldowns are exact and nothing sleeps.
 * {@link #verifyChainAndClose()} fails the test when the ledger's hash chain no longer verifies.
 */
final class GatewayHarness {
  static final String PROVIDER = "scripted";
  static final String CONTRACT = "PRC-SYNTHESIZE-001";
  static final String AGENT = "ADMIN-7f3e";
  static final String SESSION = "SES-1a2b3c4d";
  static final String WORK_ORDER = "WO-SES-1a2b3c4d-002";
  static final String WORKFLOW = SESSION + "/turn-0001";
  static final String RUN = "9f1c2e4a-run";
  static final String MODEL = "model-x-2026-01-15";
  static final String QUESTION = "What packages are installed?";
  /** Consecutive health failures that open the breaker; above four so attempt tests stay closed. */
  static final int THRESHOLD = 5;
  static final Duration COOLDOWN = Duration.ofSeconds(30);
  /** How long every scripted provider call takes on the manual clock. */
  static final Duration CALL_TIME = Duration.ofMillis(250);
  static final Pricing PRICE = new Pricing(3.0, 15.0);
  static final long IN = 100;
  static final long OUT = 50;
  static final JsonNode ANSWER_SCHEMA = Json.parse(
      "{\"type\":\"object\",\"required\":[\"response_text\"],\"properties\":{\"response_text\":{\"type\":\"string\"}}}");

  /** A real validator: the text must parse as JSON and hold every property the schema requires. */
  static final OutputValidator REQUIRED_FIELDS = (schema, text) -> {
    JsonNode value = Json.parse(text);
    List<String> errors = new ArrayList<>();
    for (JsonNode field : schema.path("required")) {
      if (!value.has(field.asText())) {
        errors.add("missing required property '" + field.asText() + "'");
      }
    }
    return errors;
  };

  final Ledger ledger;
  /** Makes the ledger's writes fail as a full disk or an immutable file would (test code). */
  final cp.ledger.WriteFaults writeFaults = new cp.ledger.WriteFaults();
  final ManualClock clock = new ManualClock(Instant.parse("2026-02-11T09:00:00Z"));
  private final AtomicLong nanos = new AtomicLong(7_000_000_000L);
  final ScriptedProvider provider = new ScriptedProvider(PROVIDER).duringEachCall(() -> clock.advance(CALL_TIME));
  final Gateway gateway;
  final ExchangeSpool spool;

  GatewayHarness(Path dir) {
    this(dir, cp.faults.FaultHook.NONE);
  }

  /** A harness whose ledger passes its fault points to {@code faults} (a test's kill point). */
  GatewayHarness(Path dir, cp.faults.FaultHook faults) {
    ledger = Ledger.open(dir.resolve("HOT/ledger/governance.jsonl"), LedgerOptions.of(Durability.NONE)
        .withHooks(cp.ledger.LedgerHooks.NONE.withWrites(writeFaults).withFaults(faults)));
    spool = ExchangeSpool.in(dir.resolve("HOT/ledger"), clock);
    gateway = gatewayWith(provider);
  }

  /** Another gateway on the same ledger and clocks, in front of {@code p}. */
  Gateway gatewayWith(LlmProvider p) {
    return gatewayWith(p, cp.observability.Telemetry.NOOP);
  }

  /** Another gateway on the same ledger and clocks, in front of {@code p}, reporting to {@code telemetry}. */
  Gateway gatewayWith(LlmProvider p, cp.observability.Telemetry telemetry) {
    return gatewayWith(p, telemetry, new GatewayConfig(p.id(), Map.of(PROVIDER, PRICE)));
  }

  /** Another gateway on the same ledger and clocks, in front of {@code p}, priced by {@code config}. */
  Gateway gatewayWith(LlmProvider p, cp.observability.Telemetry telemetry, GatewayConfig config) {
    return new Gateway(List.of(p), ledger, config, REQUIRED_FIELDS,
        id -> new CircuitBreaker(id, new CircuitBreakerConfig(THRESHOLD, COOLDOWN), nanos::get), clock, spool,
        telemetry);
  }

  void verifyChainAndClose() {
    try {
      VerifyResult result = ledger.verify();
      assertTrue(result.ok(), "HOT ledger chain broken after the scenario: " + result);
    } finally {
      ledger.close();
    }
  }

  PromptResponse route(PromptRequest.Builder request) {
    return gateway.route(request.build());
  }

  GatewayException routeFailing(PromptRequest.Builder request) {
    return assertThrows(GatewayException.class, () -> gateway.route(request.build()));
  }

  /** Scripts and routes {@code n} 503s in a row. */
  void failServerErrors(int n) {
    for (int i = 0; i < n; i++) {
      provider.fails(providerError(ProviderErrorKind.SERVER_ERROR, 503, null, "unavailable " + i));
      routeFailing(request());
    }
  }

  void advanceBreakerClock(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  CircuitBreaker.State breakerState() {
    return gateway.breaker(PROVIDER).state();
  }

  List<LedgerEntry> exchanges() {
    return ledger.byEventType(ExchangeRecords.EXCHANGE);
  }

  List<LedgerEntry> rejections() {
    return ledger.byEventType(ExchangeRecords.PROMPT_REJECTED);
  }

  /** The metadata of the ledger's only EXCHANGE; fails when there is not exactly one. */
  ObjectNode onlyExchange() {
    List<LedgerEntry> all = exchanges();
    assertEquals(1, all.size(), "exchanges: " + all);
    return all.get(0).metadata();
  }

  /** A synthesize request as HO1 sends it, outside any Temporal activity. */
  static PromptRequest.Builder request() {
    return PromptRequest.builder()
        .contractId(CONTRACT)
        .promptPackId("PRM-SYNTHESIZE-001")
        .agentId(AGENT)
        .agentClass("ADMIN")
        .frameworkId("FMWK-000")
        .workOrderId(WORK_ORDER)
        .sessionId(SESSION)
        .tier("ho1")
        .system("You are ADMIN.")
        .messages(List.of(Message.user(QUESTION)))
        .tools(List.of(new ToolDefinition("list_packages", "List all installed packages", null),
            new ToolDefinition("read_file", "Read a governed file", null)))
        .maxTokens(1024)
        .temperature(0.2);
  }

  /** The same request made by activity {@code activityId} of the turn workflow, on {@code attempt}. */
  static PromptRequest.Builder inActivity(String activityId, int attempt) {
    return request().workflowId(WORKFLOW).runId(RUN).activityId(activityId).attempt(attempt);
  }

  /** The request under a contract with structured output and {@link #ANSWER_SCHEMA}. */
  static PromptRequest.Builder structured() {
    return request().structuredOutput(true).outputSchema(ANSWER_SCHEMA);
  }

  /** What {@link #request()} asks, in the canonical form an EXCHANGE records. */
  static JsonNode expectedPrompt() {
    return Json.parse("""
        {"system":"You are ADMIN.",
         "messages":[{"role":"user","content":[{"type":"text","text":"What packages are installed?"}]}],
         "tools":["list_packages","read_file"]}""");
  }

  static ProviderReply reply(String text) {
    return new ProviderReply(List.of(ContentBlock.text(text)), IN, OUT, MODEL, "stop");
  }

  /**
   * The one place that builds provider failures, so the providers branch's ProviderException
   * (a builder instead of this stub's constructor) changes only this method.
   */
  static ProviderException providerError(ProviderErrorKind kind, int httpStatus, Duration retryAfter,
      String message) {
    return ProviderException.builder(PROVIDER, kind).httpStatus(httpStatus)
        .retryAfter(java.util.Optional.ofNullable(retryAfter)).message(message).build();
  }

  static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new TreeSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A wall clock that moves only when told to. */
  static final class ManualClock extends Clock {
    private Instant now;

    ManualClock(Instant start) {
      this.now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("tests use UTC");
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
