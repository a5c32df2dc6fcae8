package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP client against the real reference servers from npm ({@link ReferenceServers}): list and
 * call over stdio and streamable HTTP, a call slower than its timeout, a server killed between
 * two calls, and a stdio server's environment.
 */
class McpConnectionTest {
  /** Set by surefire in the worker's (this JVM's) environment; a stdio server must never see it. */
  static final String CANARY = "CP_TEST_CANARY_SECRET";

  @TempDir Path tmp;

  private static McpConnection stdio(Map<String, String> env) {
    return new McpConnection(ReferenceServers.everythingStdio("everything", env), System.getenv(), McpSettings.DEFAULTS);
  }

  @Test
  void overStdio_theToolsAreListedWithAHash_andCalledByTheirOwnNames() {
    try (McpConnection c = stdio(Map.of())) {
      McpToolList tools = c.start();

      assertTrue(tools.names().containsAll(List.of("echo", "get-sum", "get-env", "trigger-long-running-operation")),
          tools.names()::toString);
      assertTrue(tools.hash().matches("[0-9a-f]{64}"));
      assertEquals("number", tools.find("get-sum").orElseThrow().inputSchema().at("/properties/a/type").asText());
      assertEquals(ToolResult.ok("The sum of 2 and 3 is 5."), c.call("get-sum", Json.parse("{\"a\":2,\"b\":3}")));
      assertEquals(ToolResult.ok("Echo: hello"), c.call("echo", Json.parse("{\"message\":\"hello\"}")));
      assertEquals(1, c.starts(), "one server process for many calls");
    }
  }

  @Test
  void overStreamableHttp_theSameToolsAreListedAndCalled() {
    try (ReferenceServers.HttpServer server = ReferenceServers.everythingHttp();
        McpConnection c = new McpConnection(new McpServerSpec.Http("remote", server.url(),
            Map.of("X-Test-Header", "not-shown")), System.getenv(), McpSettings.DEFAULTS)) {
      McpToolList tools = c.start();

      assertTrue(tools.names().containsAll(List.of("echo", "get-sum")), tools.names()::toString);
      assertEquals(ToolResult.ok("The sum of 40 and 2 is 42."), c.call("get-sum", Json.parse("{\"a\":40,\"b\":2}")));
      assertEquals(ToolResult.ok("Echo: over http"), c.call("echo", Json.parse("{\"message\":\"over http\"}")));
      assertFalse(c.spec().toString().contains("not-shown"), "header values never appear in the spec's text");
    }
  }

  @Test
  void theMemoryServer_keepsWhatOneCallCreatedForTheNext() throws Exception {
    Path graph = tmp.resolve("memory.jsonl");
    try (McpConnection c = new McpConnection(ReferenceServers.memoryStdio("memory", graph), System.getenv(),
        McpSettings.DEFAULTS)) {
      assertTrue(c.start().names().containsAll(List.of("create_entities", "read_graph")));

      ToolResult created = c.call("create_entities", Json.parse("{\"entities\":[{\"name\":\"Lisbon\","
          + "\"entityType\":\"city\",\"observations\":[\"sunny\"]}]}"));
      ToolResult read = c.call("read_graph", Json.parse("{}"));

      assertTrue(created.ok(), created::toString);
      assertTrue(read.ok() && read.content().contains("Lisbon") && read.content().contains("sunny"), read::toString);
      assertTrue(java.nio.file.Files.readString(graph).contains("Lisbon"), "its env (MEMORY_FILE_PATH) reached it");
    }
  }

  @Test
  void aCallSlowerThanTheRequestTimeout_endsAsToolTimeout_andTheServerServesTheNextCall() {
    McpSettings quick = new McpSettings(Duration.ofMillis(800), McpSettings.DEFAULT_START_TIMEOUT);
    try (McpConnection c = new McpConnection(ReferenceServers.everythingStdio("everything", Map.of()), System.getenv(),
        quick)) {
      c.start();
      long t0 = System.nanoTime();
      ToolResult slow = c.call("trigger-long-running-operation", Json.parse("{\"duration\":5,\"steps\":1}"));
      long tookMs = (System.nanoTime() - t0) / 1_000_000;

      assertEquals(ToolErrorCodes.TOOL_TIMEOUT, slow.errorCode(), slow::toString);
      assertTrue(slow.content().contains("did not answer within 800 ms"), slow::toString);
      assertTrue(tookMs < 4000, "the call was abandoned at its timeout, not after the operation: " + tookMs + " ms");
      assertEquals(ToolResult.ok("Echo: still here"), c.call("echo", Json.parse("{\"message\":\"still here\"}")));
      assertEquals(1, c.starts(), "a timeout does not restart the server");
    }
  }

  @Test
  void aStdioServerKilledBetweenTwoCalls_isStartedAgainForTheSecond() {
    try (McpConnection c = stdio(Map.of())) {
      assertEquals(ToolResult.ok("Echo: one"), c.call("echo", Json.parse("{\"message\":\"one\"}")));
      List<ProcessHandle> servers = serverProcesses();
      assertEquals(1, servers.size(), "one server process");

      servers.get(0).destroyForcibly();
      waitUntil(() -> !c.alive(), Duration.ofSeconds(10), "the connection notices the server exited");

      assertEquals(ToolResult.ok("Echo: two"), c.call("echo", Json.parse("{\"message\":\"two\"}")));
      assertEquals(2, c.starts());
      assertEquals(1, serverProcesses().size(), "a new server, and the dead one gone");
    }
  }

  @Test
  void anHttpServerThatIsDown_givesTheModelAClearError_andIsReachedAgainWhenItIsBack() {
    try (ReferenceServers.HttpServer server = ReferenceServers.everythingHttp();
        McpConnection c = new McpConnection(new McpServerSpec.Http("remote", server.url(), Map.of()),
            System.getenv(), McpSettings.DEFAULTS)) {
      assertTrue(c.call("echo", Json.parse("{\"message\":\"up\"}")).ok());

      server.kill();
      ToolResult down = c.call("echo", Json.parse("{\"message\":\"down\"}"));
      ToolResult stillDown = c.call("echo", Json.parse("{\"message\":\"down\"}"));

      assertEquals(ToolErrorCodes.SERVER_UNAVAILABLE, down.errorCode(), down::toString);
      assertTrue(down.content().startsWith("MCP server 'remote' is unavailable ("), down::toString);
      assertEquals(ToolErrorCodes.SERVER_UNAVAILABLE, stillDown.errorCode(), stillDown::toString);
      assertTrue(stillDown.content().endsWith("; the tool did not run. The worker starts it again on the next call"),
          stillDown::toString);

      server.restart();
      assertEquals(ToolResult.ok("Echo: back"), c.call("echo", Json.parse("{\"message\":\"back\"}")));
    }
  }

  @Test
  void aStdioServer_getsAMinimalEnvironmentAndItsOwnEnv_neverTheWorkers() {
    assertTrue(System.getenv(CANARY) != null, "surefire sets " + CANARY + " in the worker's environment");
    String canaryValue = System.getenv(CANARY);

    try (McpConnection c = stdio(Map.of("OWN_SETTING", "from-definition"))) {
      ToolResult env = c.call("get-env", Json.parse("{}"));

      assertTrue(env.ok(), env::toString);
      assertFalse(env.content().contains(CANARY) || env.content().contains(canaryValue), env::content);
      assertTrue(env.content().contains("\"OWN_SETTING\": \"from-definition\""), env::content);
      assertTrue(env.content().contains("\"PATH\""), "what node needs to run is passed");
    }
  }

  /** The contrast: the SDK's own stdio transport hands the server the worker's whole environment. */
  @Test
  void theSdksOwnStdioTransport_wouldLeakTheWorkersEnvironment() {
    var spec = ReferenceServers.everythingStdio("everything", Map.of());
    var params = ServerParameters.builder(spec.command()).args(spec.args()).build();
    try (var client = McpClient.sync(new StdioClientTransport(params, McpJsonDefaults.getMapper()))
        .requestTimeout(Duration.ofSeconds(20)).build()) {
      client.initialize();
      var r = client.callTool(new McpSchema.CallToolRequest("get-env", Map.of()));
      String text = ((McpSchema.TextContent) r.content().get(0)).text();
      assertTrue(text.contains(CANARY), "without the isolation the canary reaches the server");
    }
  }

  @Test
  void theServersChangeNotification_bringsANewListing_andAChangedServerShowsAChangedHash() {
    List<McpToolList> notified = new CopyOnWriteArrayList<>();
    try (McpConnection c = new McpConnection(ReferenceServers.everythingStdio("everything", Map.of()), System.getenv(),
        McpSettings.DEFAULTS, notified::add)) {
      c.start();
      // server-everything registers its capability-dependent tools after the handshake and says so.
      waitUntil(() -> !notified.isEmpty(), Duration.ofSeconds(10), "the list_changed notification arrives");
      assertEquals(c.tools(), notified.get(notified.size() - 1));
    }
    McpToolList one = McpToolList.of(List.of(new McpToolInfo("echo", "Echoes", Json.object().put("type", "object"))));
    McpToolList same = McpToolList.of(List.of(new McpToolInfo("echo", "Echoes", Json.object().put("type", "object"))));
    McpToolList changed = McpToolList.of(List.of(new McpToolInfo("echo", "Echoes twice",
        Json.object().put("type", "object"))));
    assertEquals(one.hash(), same.hash());
    assertFalse(one.hash().equals(changed.hash()));
  }

  @Test
  void imagesAndResources_areSummarizedNeverPasted() {
    try (McpConnection c = stdio(Map.of())) {
      ToolResult image = c.call("get-tiny-image", Json.parse("{}"));
      ToolResult resource = c.call("get-resource-reference", Json.parse("{\"resourceType\":\"Blob\"}"));

      assertTrue(image.content().contains("[image: image/png, ") && image.content().contains(" bytes, not shown]"),
          image::content);
      assertFalse(image.content().contains("iVBOR"), "no base64 image data reaches the model");
      assertTrue(resource.content().contains("[resource: demo://resource/"), resource::content);
      assertTrue(resource.content().length() < 1000, resource::content);
    }
  }

  /** The live server-everything processes this JVM started (the tests of this class run one at a time). */
  private static List<ProcessHandle> serverProcesses() {
    return ReferenceServers.children(ReferenceServers.everythingScript().toString()).stream()
        .filter(ProcessHandle::isAlive).toList();
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition, Duration limit, String what) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      ReferenceServers.sleep(50);
    }
  }
}
