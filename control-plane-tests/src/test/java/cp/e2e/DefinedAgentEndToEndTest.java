package cp.e2e;

import static cp.e2e.ScriptedModel.answers;
import static cp.e2e.ScriptedModel.callsTool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.ApprovalDecision;
import cp.model.PendingApproval;
import cp.model.ToolDefinition;
import cp.model.TurnResult;
import cp.tools.mcp.McpConnection;
import cp.tools.mcp.ReferenceServers;
import cp.tools.registry.ToolJars;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22's wiring through real turns: a Java tool jar on CP_TOOLS_PATH and a definition in
 * CP_AGENTS_DIR granting it and tools of the real reference MCP server (npm), offered under
 * provider-safe names, called by their own names, governed like the built-ins (grants, approval,
 * timeouts, TOOL_CALL entries with origin), beside ADMIN and RESIDENT.
 */
class DefinedAgentEndToEndTest {
  @TempDir static Path tmp;
  static final ScriptedModel MODEL = new ScriptedModel();
  static PlaneFixture plane;
  static ReferenceServers.HttpServer web;

  static final String WEATHER = """
      agent_class: WEATHER
      instructions: You tell the weather.
      tools: [get_weather, 'everything/echo', 'everything/get-env', 'everything/trigger-long-running-operation',
        'web/echo', 'memory/create_entities', 'memory/read_graph']
      mcp_servers:
        everything:
          command: '${NODE}'
          args: ['${EVERYTHING_JS}', stdio]
        web:
          url: '${EVERYTHING_URL}'
        memory:
          command: '${NODE}'
          args: ['${MEMORY_JS}']
          env: {MEMORY_FILE_PATH: '${MEMORY_FILE}'}
      approval:
        everything/get-env: required
      approval_timeout_seconds: 60
      tool_timeout_seconds:
        everything/trigger-long-running-operation: 1
      """;

  @BeforeAll
  static void startPlane() throws Exception {
    Path jar = ToolJars.jar(tmp.resolve("weather.jar"), Map.of("acme.Weather",
        ToolJars.provider("acme", "Weather", ToolJars.cityTool("get_weather"))), List.of("acme.Weather"));
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), WEATHER);
    Map<String, String> extra = new HashMap<>();
    extra.put("CP_AGENTS_DIR", agents.toString());
    extra.put("CP_TOOLS_PATH", jar.toString());
    extra.put("NODE", ReferenceServers.node());
    extra.put("EVERYTHING_JS", ReferenceServers.everythingScript().toString());
    extra.put("MEMORY_JS", ReferenceServers.memoryScript().toString());
    extra.put("MEMORY_FILE", tmp.resolve("memory.jsonl").toString());
    web = ReferenceServers.everythingHttp();
    extra.put("EVERYTHING_URL", web.url().toString());
    extra.put("PATH", System.getenv("PATH"));
    plane = PlaneFixture.start(PlaneFixture.env(tmp.resolve("home"), extra), MODEL, PlaneRuntime::builtinTools);
  }

  @AfterAll
  static void stopPlane() {
    if (plane != null) {
      plane.close();
    }
    if (web != null) {
      web.close();
    }
  }

  @BeforeEach
  void resetModel() {
    MODEL.reset();
  }

  private static List<LedgerEntry> toolCalls(String sid) {
    return plane.runtime.ledgers().ho1().bySession(sid).stream().filter(e -> "TOOL_CALL".equals(e.eventType())).toList();
  }

  private static McpConnection everything() {
    return plane.runtime.agents().orElseThrow().connections().stream()
        .filter(c -> c.spec().name().equals("everything")).findFirst().orElseThrow();
  }

  @Test
  void aJavaToolAndAnMcpTool_runInARealTurn_offeredUnderExposedNames_recordedWithOrigin() {
    MODEL.synthesize(callsTool("get_weather", "{\"city\":\"Lisbon\"}"),
        callsTool("everything_echo", "{\"message\":\"from the plane\"}"), answers("Lisbon is sunny."));
    String sid = plane.client.startSession("WEATHER");

    TurnResult r = plane.client.turn(sid, "weather in Lisbon?");

    assertEquals("success", r.outcome(), r::toString);
    List<String> offered = MODEL.synthesizeRequests.get(0).tools().stream().map(ToolDefinition::name).toList();
    assertEquals(List.of("get_weather", "everything_echo", "everything_get-env",
        "everything_trigger-long-running-operation", "web_echo", "memory_create_entities", "memory_read_graph"),
        offered, "granted tools only, under provider-safe names");
    List<LedgerEntry> calls = toolCalls(sid);
    assertEquals(2, calls.size(), calls::toString);
    LedgerEntry java = calls.get(0);
    assertEquals("get_weather", java.metaText("tool_id"));
    assertEquals("java", java.metaText("origin"));
    assertEquals("ok", java.metaText("status"));
    String wo = java.metaText("wo_id");
    assertEquals("get_weather: Lisbon key " + sid + "/turn-0001/" + wo + "/round-1/call-1", java.metaText("result"),
        "the tool got the call's idempotency key: turn workflow, work order, round, call index");
    assertEquals("city=\"Lisbon\"", java.metaText("arguments_summary"));
    LedgerEntry mcp = calls.get(1);
    assertEquals("everything/echo", mcp.metaText("tool_id"), "called and recorded by its own name");
    assertEquals("mcp:everything", mcp.metaText("origin"));
    assertEquals("Echo: from the plane", mcp.metaText("result"));
    assertTrue(mcp.metadata().path("duration_ms").isNumber());
    assertEquals("Echo: from the plane".length(), mcp.metadata().path("result_chars").asInt());
    List<LedgerEntry> lists = plane.runtime.ledgers().ho1().bySession(sid).stream()
        .filter(e -> "MCP_TOOL_LIST".equals(e.eventType())).toList();
    assertEquals(3, lists.size(), "one list per server, session and hash, however many rounds offered it");
    LedgerEntry everythingList = lists.stream().filter(e -> "mcp:everything".equals(e.metaText("origin"))).findFirst()
        .orElseThrow();
    assertEquals(everything().tools().hash(), everythingList.metaText("hash"));
  }

  @Test
  void toolsOfAStreamableHttpServerAndOfServerMemory_runInARealTurn() {
    MODEL.synthesize(callsTool("web_echo", "{\"message\":\"over http\"}"),
        callsTool("memory_create_entities", "{\"entities\":[{\"name\":\"Lisbon\",\"entityType\":\"city\","
            + "\"observations\":[\"sunny\"]}]}"),
        callsTool("memory_read_graph", "{}"), answers("Remembered."));
    String sid = plane.client.startSession("WEATHER");

    TurnResult r = plane.client.turn(sid, "remember Lisbon");

    assertEquals("success", r.outcome(), r::toString);
    List<LedgerEntry> calls = toolCalls(sid);
    assertEquals(List.of("web/echo", "memory/create_entities", "memory/read_graph"),
        calls.stream().map(e -> e.metaText("tool_id")).toList());
    assertEquals(List.of("mcp:web", "mcp:memory", "mcp:memory"), calls.stream().map(e -> e.metaText("origin")).toList());
    assertEquals("Echo: over http", calls.get(0).metaText("result"));
    assertTrue(calls.get(2).metaText("result").contains("\"Lisbon\""), calls.get(2).metaText("result"));
    List<String> listed = plane.runtime.ledgers().ho1().bySession(sid).stream()
        .filter(e -> "MCP_TOOL_LIST".equals(e.eventType())).map(e -> e.metaText("origin")).sorted().toList();
    assertEquals(List.of("mcp:everything", "mcp:memory", "mcp:web"), listed, "each server's list, once");
  }

  @Test
  void aToolNotGranted_isNeitherOfferedNorRun_theModelIsToldToolNotAllowed() {
    MODEL.synthesize(callsTool("everything_get-sum", "{\"a\":2,\"b\":3}"), answers("I cannot add."));
    String sid = plane.client.startSession("WEATHER");

    TurnResult r = plane.client.turn(sid, "add 2 and 3");

    assertEquals("success", r.outcome(), r::toString);
    assertFalse(MODEL.synthesizeRequests.get(0).tools().stream().anyMatch(t -> t.name().contains("get-sum")));
    LedgerEntry call = toolCalls(sid).get(0);
    assertEquals("refused", call.metaText("status"));
    assertEquals("tool_not_allowed", call.metaText("error_code"));
    assertFalse(call.metaText("result").contains("5"), "the server never ran it: " + call.metaText("result"));
    String toolResult = MODEL.synthesizeRequests.get(1).messages().toString();
    assertTrue(toolResult.contains("is not one of agent WEATHER's tools"), toolResult);
  }

  @Test
  void anMcpToolWithApprovalRequired_pausesTheTurn_untilAPersonDecides() throws Exception {
    MODEL.synthesize(callsTool("everything_get-env", "{}"), answers("Not allowed."));
    String sid = plane.client.startSession("WEATHER");

    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> plane.client.turn(sid, "show env"));
    PendingApproval pending = waitForApproval(sid);
    assertEquals("everything/get-env", pending.tool());
    assertFalse(turn.isDone(), "the turn waits for the decision");
    assertTrue(toolCalls(sid).isEmpty(), "nothing ran before the decision");
    plane.client.approve(sid, new ApprovalDecision(pending.approvalId(), ApprovalDecision.DENY, "alice", "no env"),
        null);
    TurnResult r = turn.get(60, TimeUnit.SECONDS);

    assertEquals("success", r.outcome(), r::toString);
    LedgerEntry call = toolCalls(sid).get(0);
    assertEquals("everything/get-env", call.metaText("tool_id"));
    assertEquals("approval_denied", call.metaText("error_code"));
    assertEquals("mcp:everything", call.metaText("origin"));
  }

  @Test
  void anMcpToolSlowerThanItsTimeout_endsAsToolTimeout_andTheTurnGoesOn() {
    MODEL.synthesize(callsTool("everything_trigger-long-running-operation", "{\"duration\":5,\"steps\":5}"),
        answers("It took too long."));
    String sid = plane.client.startSession("WEATHER");
    long start = System.nanoTime();

    TurnResult r = plane.client.turn(sid, "run the long operation");

    assertEquals("success", r.outcome(), r::toString);
    LedgerEntry call = toolCalls(sid).get(0);
    assertEquals("tool_timeout", call.metaText("error_code"), call.metaText("result"));
    assertTrue(call.metaText("result").contains("1000 ms"), "the agent's tool_timeout_seconds, not the default");
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5) + TimeUnit.SECONDS.toNanos(20),
        "the call was abandoned, not awaited");
  }

  @Test
  void theServerKilledBetweenTwoCalls_isStartedAgain_bothCallsAnswer() throws Exception {
    MODEL.synthesize(callsTool("everything_echo", "{\"message\":\"one\"}"), answers("one"),
        callsTool("everything_echo", "{\"message\":\"two\"}"), answers("two"));
    String sid = plane.client.startSession("WEATHER");
    plane.client.turn(sid, "first");
    int starts = everything().starts();
    // The stdio server only: the streamable HTTP one runs the same script without "stdio".
    for (ProcessHandle p : ReferenceServers.children(ReferenceServers.everythingScript() + " stdio")) {
      p.destroyForcibly();
      p.onExit().get(10, TimeUnit.SECONDS);
    }

    TurnResult r = plane.client.turn(sid, "second");

    assertEquals("success", r.outcome(), r::toString);
    List<LedgerEntry> calls = toolCalls(sid);
    assertEquals("Echo: two", calls.get(1).metaText("result"), calls.get(1).toString());
    assertEquals(starts + 1, everything().starts(), "started again for the second call");
  }

  @Test
  void adminAndResident_stillWork_besideTheDefinedClass() {
    MODEL.thenForever(answers("fine"));
    assertEquals(List.of("ADMIN", "RESIDENT", "WEATHER"), plane.runtime.catalog().agentClasses());
    for (String cls : List.of("ADMIN", "RESIDENT")) {
      String sid = plane.client.startSession(cls);
      assertEquals("success", plane.client.turn(sid, "hello").outcome(), cls);
      List<String> offered = MODEL.synthesizeRequests.get(MODEL.synthesizeRequests.size() - 1).tools().stream()
          .map(ToolDefinition::name).toList();
      assertTrue(offered.stream().noneMatch(n -> n.startsWith("everything") || n.startsWith("web_")
          || n.startsWith("memory_") || n.equals("get_weather")),
          cls + " is offered only its own tools: " + offered);
    }
  }

  private static PendingApproval waitForApproval(String sid) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      List<PendingApproval> p = plane.client.pendingApprovals(sid);
      if (!p.isEmpty()) {
        return p.get(0);
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no approval became pending");
  }
}
