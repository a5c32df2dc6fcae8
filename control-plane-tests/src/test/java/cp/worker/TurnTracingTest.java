package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.client.ControlPlaneClient;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.observability.PlaneSpans;
import cp.observability.SecretMasker;
import cp.observability.Telemetry;
import cp.tools.ToolResult;
import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: one turn with a tool call, against a mock Anthropic Messages API with a canary key, on
 * a worker with a workflow cache of 0 (every workflow task replays the history from the start),
 * traced into the OpenTelemetry SDK's in-memory exporter. The turn is one connected trace from the
 * client's Update down to the provider round trips; the GenAI spans carry the conventions'
 * attributes and point at the ledger entries they wrote (id and hash); replaying the recorded
 * histories emits no span at all; no span carries the key or the user's text.
 */
class TurnTracingTest {
  private final String hex = HexFormat.of().formatHex(SecureRandom.getSeed(12));
  private final String canaryKey = "sk-ant-canary-" + hex;
  private final String userText = "which packages are installed here " + hex + "?";

  @TempDir Path home;
  @StartStop final MockWebServer anthropic = new MockWebServer();

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
      .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();

  @AfterEach
  void uninstall() {
    sdk.close();
  }

  /** classify answers JSON; synthesize calls list_packages once, then answers. */
  static final class MessagesApi extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest r) {
      String body = r.getBody().utf8();
      JsonNode json = Json.parse(body);
      if (!json.has("tools")) {
        return text("{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"list_installed_packages\"}");
      }
      if (body.contains("\"tool_result\"")) {
        return text("{\"response_text\":\"There are 3 packages installed.\"}");
      }
      return json(200, """
          {"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5",
           "content":[{"type":"tool_use","id":"toolu_01","name":"list_packages","input":{}}],
           "stop_reason":"tool_use","usage":{"input_tokens":30,"output_tokens":10}}""");
    }
  }

  static MockResponse text(String t) {
    String body = Json.object().put("id", "msg_1").put("type", "message").put("role", "assistant")
        .put("model", "claude-sonnet-4-5").put("stop_reason", "end_turn")
        .set("content", Json.MAPPER.createArrayNode().add(Json.object().put("type", "text").put("text", t)))
        .toString();
    return json(200, body.substring(0, body.length() - 1) + ",\"usage\":{\"input_tokens\":20,\"output_tokens\":8}}");
  }

  static MockResponse json(int status, String body) {
    return new MockResponse.Builder().code(status).setHeader("content-type", "application/json").body(body).build();
  }

  @Test
  void aTurnWithAToolCall_isOneConnectedTrace_whoseGenAiSpansPointAtTheirLedgerEntries_andReplayEmitsNoSpan()
      throws Exception {
    anthropic.setDispatcher(new MessagesApi());
    Map<String, String> env = new HashMap<>(PlaneFixture.env(home, Map.of("CP_PROVIDER", "anthropic",
        "ANTHROPIC_API_KEY", canaryKey, "ANTHROPIC_BASE_URL", anthropic.url("/").toString())));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // The production path: spans leave through the sanitizing exporter, the telemetry is passed in.
    Telemetry telemetry = Telemetry.exportingTo(spans, registry, false, SecretMasker.fromEnv(env));
    PlaneConfig config = PlaneConfig.fromEnv(env);
    TurnResult result;
    String sid;
    List<WorkflowExecutionHistory> histories;
    List<SpanData> turnSpans;
    List<LedgerEntry> exchanges;
    List<LedgerEntry> toolCalls;
    Map<String, LedgerEntry> byId = new HashMap<>();
    try (telemetry; PlaneRuntime runtime = PlaneRuntime.open(config,
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("cp-core 1.0.0\ncp-gateway 1.0.0\ncp-tools 1.0.0"),
        ProcessServices.of(telemetry));
        TemporalConnection conn = TemporalConnection.open(config, telemetry)) {
      conn.ensureSearchAttributes();
      try (PlaneWorker worker = PlaneWorker.start(conn, runtime, "test",
          WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(0).build())) {
        ControlPlaneClient client = new ControlPlaneClient(conn.client(), config.worker().taskQueue(),
            runtime.catalog().agentClasses(), config.worker().continueAsNewAfterTurns());
        sid = client.startSession("ADMIN");
        spans.reset(); // the session's start is its own trace; this test is about the turn's
        result = client.turn(sid, userText);
        assertEquals(TurnOutcome.SUCCESS, result.outcome(), result.response());
        assertFalse(result.toolCalls().isEmpty(), "the turn ran a tool");
        histories = List.of(conn.client().fetchHistory(sid),
            conn.client().fetchHistory(cp.model.WorkOrderIds.turnWorkflow(sid, 1)));
        turnSpans = List.copyOf(spans.getFinishedSpanItems());
        client.end(sid); // one more workflow task, which replays the turn's Update from the history first
      }
      exchanges = runtime.ledgers().hot().bySession(sid).stream().filter(e -> e.eventType().equals("EXCHANGE")).toList();
      toolCalls = runtime.ledgers().ho1().bySession(sid).stream().filter(e -> e.eventType().equals("TOOL_CALL")).toList();
      for (var ledger : List.of(runtime.ledgers().hot(), runtime.ledgers().ho1(), runtime.ledgers().ho2("ADMIN"))) {
        ledger.bySession(sid).forEach(e -> byId.put(e.entryId(), e));
      }
    }
    // With a cache of 0 every workflow task replayed the session (the end's replayed the turn's
    // Update): the turn is still counted once.
    assertEquals(1.0, registry.get("cp.turns").tag("outcome", "success").counter().count());
    assertEquals(3.0, registry.get("cp.llm.round.trips").counter().count());

    List<SpanData> all = turnSpans;
    String names = all.stream().map(s -> s.getName() + "<" + s.getTraceId().substring(0, 6) + ":" + s.getSpanId()
        + "^" + s.getParentSpanId() + ">").collect(Collectors.joining("\n  "));

    // One trace: every span of the turn shares the trace id of the client's Update, and every parent
    // but the root's is in it. (The session's start, whose last activities may end after the reset
    // above, is a trace of its own.)
    SpanData update = all.stream().filter(s -> s.getName().equals("UpdateWorkflow:turn")).findFirst()
        .orElseThrow(() -> new AssertionError("no client Update span:\n  " + names));
    List<SpanData> turn = all.stream().filter(s -> s.getTraceId().equals(update.getTraceId())).toList();
    List<SpanData> others = all.stream().filter(s -> !s.getTraceId().equals(update.getTraceId())).toList();
    assertTrue(others.stream().allMatch(s -> s.getName().endsWith(":SessionProfile")
        || s.getName().endsWith(":SessionProfileForTenant") || s.getName().endsWith(":SessionRecord")), "only the session's start is outside the turn's trace:\n  " + names);
    Set<String> ids = turn.stream().map(SpanData::getSpanId).collect(Collectors.toSet());
    List<SpanData> roots = turn.stream().filter(s -> !ids.contains(s.getParentSpanId())).toList();
    assertEquals(1, roots.size(), "one root (the client's Update), the rest connected:\n  " + names);
    assertTrue(roots.get(0).getName().contains("turn"), "the root is the client's turn Update: " + roots.get(0).getName());

    // chat spans: one per provider round trip (3: classify, synthesize's tool_use, its answer), none twice.
    List<SpanData> chats = turn.stream().filter(s -> "chat".equals(s.getAttributes().get(PlaneSpans.OPERATION))).toList();
    assertEquals(3, exchanges.size(), "EXCHANGEs of the turn");
    assertEquals(exchanges.size(), chats.size(), "one chat span per EXCHANGE (no replay duplicates):\n  " + names);
    Set<String> chatEntries = chats.stream().map(s -> s.getAttributes().get(PlaneSpans.LEDGER_ENTRY_ID))
        .collect(Collectors.toSet());
    assertEquals(exchanges.stream().map(LedgerEntry::entryId).collect(Collectors.toSet()), chatEntries);
    for (SpanData c : chats) {
      var a = c.getAttributes();
      assertEquals("chat claude-sonnet-4-5", c.getName());
      assertEquals("anthropic", a.get(PlaneSpans.PROVIDER));
      assertEquals("claude-sonnet-4-5", a.get(PlaneSpans.REQUEST_MODEL));
      assertEquals("claude-sonnet-4-5", a.get(PlaneSpans.RESPONSE_MODEL));
      assertNotNull(a.get(PlaneSpans.MAX_TOKENS));
      assertNotNull(a.get(PlaneSpans.TEMPERATURE));
      assertTrue(a.get(PlaneSpans.INPUT_TOKENS) > 0 && a.get(PlaneSpans.OUTPUT_TOKENS) > 0);
      assertFalse(a.get(PlaneSpans.FINISH_REASONS).isEmpty());
      assertEquals(sid, a.get(PlaneSpans.SESSION_ID));
      assertEquals(1L, a.get(PlaneSpans.TURN));
      assertNotNull(a.get(PlaneSpans.WO_ID));
      LedgerEntry e = byId.get(a.get(PlaneSpans.LEDGER_ENTRY_ID));
      assertEquals(e.hash(), a.get(PlaneSpans.LEDGER_HASH), "the chat span's hash is its EXCHANGE's");
      assertEquals(e.metaText("wo_id") != null ? e.metaText("wo_id") : e.workOrderId(), a.get(PlaneSpans.WO_ID));
    }
    // Finish reasons in the conventions' words (tool_call), one mapping from ours (tool_use).
    assertTrue(chats.stream().anyMatch(c -> c.getAttributes().get(PlaneSpans.FINISH_REASONS).contains("tool_call")));
    assertTrue(chats.stream().noneMatch(c -> c.getAttributes().get(PlaneSpans.FINISH_REASONS).contains("tool_use")));
    // Issue 20 §3: the provider's response id, the session as the conversation, the server it went to.
    assertEquals(Set.of("msg_1", "msg_2"), chats.stream().map(c -> c.getAttributes().get(PlaneSpans.RESPONSE_ID))
        .collect(Collectors.toSet()));
    for (SpanData c : chats) {
      assertEquals(sid, c.getAttributes().get(PlaneSpans.CONVERSATION_ID));
      assertEquals(anthropic.getHostName(), c.getAttributes().get(PlaneSpans.SERVER_ADDRESS));
      assertEquals((long) anthropic.getPort(), c.getAttributes().get(PlaneSpans.SERVER_PORT));
    }
    // Tokens are counted once: on the chat spans, not again on the work-order spans.
    long spanTokens = turn.stream().mapToLong(x -> java.util.Optional.ofNullable(x.getAttributes()
        .get(PlaneSpans.INPUT_TOKENS)).orElse(0L)).sum();
    assertEquals(exchanges.stream().mapToLong(e -> e.meta("input_tokens").asLong()).sum(), spanTokens,
        "gen_ai.usage.input_tokens summed over the trace = the EXCHANGEs' input tokens");

    // One invoke_agent span per turn, the turn's work under it, under the client's Update.
    List<SpanData> agents = turn.stream().filter(x -> PlaneSpans.INVOKE_AGENT.equals(x.getAttributes()
        .get(PlaneSpans.OPERATION))).toList();
    assertEquals(1, agents.size(), names);
    SpanData agent = agents.get(0);
    assertEquals("invoke_agent ADMIN", agent.getName());
    assertEquals("ADMIN", agent.getAttributes().get(PlaneSpans.AGENT_NAME));
    assertEquals(sid, agent.getAttributes().get(PlaneSpans.CONVERSATION_ID));
    Map<String, SpanData> bySpanId = turn.stream().collect(Collectors.toMap(SpanData::getSpanId, x -> x));
    for (SpanData c : chats) {
      SpanData up = c;
      while (up != null && up != agent) {
        up = bySpanId.get(up.getParentSpanId());
      }
      assertEquals(agent, up, "chat span " + c.getSpanId() + " hangs under invoke_agent:\n  " + names);
    }
    assertTrue(registry.find(cp.observability.PlaneMetrics.GENAI_TOKEN_USAGE).tag("gen_ai.token.type", "input")
        .summary().totalAmount() > 0);
    assertEquals(3, registry.find(cp.observability.PlaneMetrics.GENAI_OPERATION_DURATION).timer().count());
    // No span carries error text: no exception message or stack trace anywhere.
    for (SpanData x : turn) {
      x.getEvents().forEach(ev -> assertTrue(ev.getAttributes().get(io.opentelemetry.api.common.AttributeKey
          .stringKey("exception.message")) == null, x.getName() + ": " + ev));
    }

    // execute_tool: the TOOL_CALL it wrote.
    List<SpanData> tools = turn.stream().filter(s -> s.getName().startsWith("execute_tool ")).toList();
    assertEquals(1, tools.size(), names);
    SpanData tool = tools.get(0);
    assertEquals("execute_tool list_packages", tool.getName());
    assertEquals("list_packages", tool.getAttributes().get(PlaneSpans.TOOL_NAME));
    assertEquals("toolu_01", tool.getAttributes().get(PlaneSpans.TOOL_CALL_ID));
    assertEquals(toolCalls.get(0).entryId(), tool.getAttributes().get(PlaneSpans.LEDGER_ENTRY_ID));
    assertEquals(toolCalls.get(0).hash(), tool.getAttributes().get(PlaneSpans.LEDGER_HASH));

    // work_order, attention and quality_gate, each with its ledger entry.
    for (String name : List.of("attention", "quality_gate", "work_order classify", "work_order synthesize")) {
      SpanData s = turn.stream().filter(x -> x.getName().equals(name)).findFirst()
          .orElseThrow(() -> new AssertionError("no span " + name + ":\n  " + names));
      LedgerEntry e = byId.get(s.getAttributes().get(PlaneSpans.LEDGER_ENTRY_ID));
      assertNotNull(e, name + " points at a ledger entry of the session");
      assertEquals(e.hash(), s.getAttributes().get(PlaneSpans.LEDGER_HASH), name);
      assertEquals(sid, s.getAttributes().get(PlaneSpans.SESSION_ID), name);
      assertEquals(1L, s.getAttributes().get(PlaneSpans.TURN), name);
    }

    // No span carries the key or the user's text (names, attributes, events).
    for (SpanData s : all) {
      String text = s.getName() + " " + s.getAttributes() + " " + s.getEvents() + " " + s.getResource().getAttributes();
      assertFalse(text.contains(canaryKey) || text.contains(hex), "span " + s.getName() + " leaks: " + text);
    }

    // Replaying the recorded histories with the same interceptors emits nothing.
    spans.reset();
    Telemetry replaying = Telemetry.of(sdk, null, false);
    try (TestWorkflowEnvironment testEnv = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(TemporalOptions.dataConverter())
            .setInterceptors(TemporalTelemetry.clientInterceptors(replaying)).build())
        .setWorkerFactoryOptions(PlaneWorker.withTelemetry(WorkerFactoryOptions.newBuilder().build(), replaying))
        .build())) {
      Worker w = testEnv.newWorker("replay");
      w.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(WorkerSettings.defaults()),
          SessionWorkflowImpl.class, TurnWorkflowImpl.class);
      for (WorkflowExecutionHistory h : histories) {
        WorkflowReplayer.replayWorkflowExecution(h, w);
      }
    }
    assertEquals(List.of(), spans.getFinishedSpanItems().stream().map(SpanData::getName).toList(),
        "a replay emits no span");
  }

  static <T> T attr(SpanData s, AttributeKey<T> k) {
    return s.getAttributes().get(k);
  }
}
