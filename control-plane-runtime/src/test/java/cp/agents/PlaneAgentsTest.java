package cp.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.AgentConfig;
import cp.contracts.ResourceSource;
import cp.contracts.ToolSpec;
import cp.tools.mcp.McpSettings;
import cp.tools.mcp.ReferenceServers;
import cp.tools.registry.ToolJars;
import cp.tools.registry.ToolRegistryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's start: a Java tool jar on CP_TOOLS_PATH, a definition in CP_AGENTS_DIR granting it and
 * the real reference MCP server's tools, one registry over all of them, and the catalog with the
 * defined class beside ADMIN and RESIDENT.
 */
class PlaneAgentsTest {
  @TempDir Path tmp;

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("EVERYTHING_JS", ReferenceServers.everythingScript().toString());
    env.put("NODE", ReferenceServers.node());
    return env;
  }

  private Path weatherJar(String toolName) throws Exception {
    return ToolJars.jar(tmp.resolve("weather.jar"), Map.of("acme.Weather",
        ToolJars.provider("acme", "Weather", ToolJars.cityTool(toolName))), List.of("acme.Weather"));
  }

  private Path agents(String yaml) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(dir.resolve("weather.yaml"), yaml);
    return dir;
  }

  private static final String WEATHER = """
      agent_class: WEATHER
      instructions: You tell the weather.
      tools: [get_weather, read_file, 'everything/*']
      mcp_servers:
        everything:
          command: '${NODE}'
          args: ['${EVERYTHING_JS}', stdio]
      approval:
        everything/get-env: required
      approval_timeout_seconds: 120
      """;

  @Test
  void javaAndMcpToolsAndADefinedClass_startTogetherBesideTheBuiltIns() throws Exception {
    PlaneAgents.Settings s = new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(agents(WEATHER)),
        weatherJar("get_weather").toString(), env(), McpSettings.DEFAULTS, List.of());

    try (PlaneAgents plane = PlaneAgents.open(s)) {
      var registry = plane.registry();
      assertEquals("java", registry.find("get_weather").orElseThrow().origin().wireName());
      assertEquals("mcp:everything", registry.find("everything/get-sum").orElseThrow().origin().wireName());
      assertEquals("everything/get-sum", registry.byExposedName("everything_get-sum").orElseThrow().name());

      assertEquals(List.of("ADMIN", "RESIDENT", "WEATHER"), plane.catalog().agentClasses());
      AgentConfig w = plane.catalog().agent("WEATHER");
      assertTrue(w.toolIds().containsAll(List.of("get_weather", "read_file", "everything/echo", "everything/get-sum",
          "everything/get-env")), w.toolIds()::toString);
      assertEquals(ToolSpec.REQUIRED, w.tool("everything/get-env").orElseThrow().approval());
      assertEquals(120L, w.tool("everything/get-env").orElseThrow().approvalTimeoutSeconds());
      assertEquals(null, w.tool("everything/echo").orElseThrow().approval(), "only the pattern's tool needs approval");
      assertEquals("string", w.tool("get_weather").orElseThrow().parameters().at("/properties/city/type").asText());
      assertEquals("Echoes back the input string", w.tool("everything/echo").orElseThrow().description());
      assertTrue(plane.connections().get(0).alive());
      assertEquals(cp.tools.ToolResult.ok("Echo: from the plane"),
          plane.connections().get(0).call("echo", cp.model.Json.parse("{\"message\":\"from the plane\"}")));
    }
  }

  @Test
  void aJavaToolShownUnderTheSameNameAsAnMcpTool_stopsTheStart_namingBothOrigins() throws Exception {
    PlaneAgents.Settings s = new PlaneAgents.Settings(ResourceSource.classpath(),
        Optional.of(agents(WEATHER.replace("get_weather,", "everything_echo,"))),
        weatherJar("everything_echo").toString(), env(), McpSettings.DEFAULTS, List.of());

    var e = assertThrows(ToolRegistryException.class, () -> PlaneAgents.open(s));

    assertEquals(1, e.problems().size(), e.problems()::toString);
    assertTrue(e.problems().get(0).startsWith("tools everything_echo (java, " + tmp.resolve("weather.jar")
        + ") and everything/echo (mcp:everything, stdio: "), e.problems()::toString);
    assertTrue(ReferenceServers.children(ReferenceServers.everythingScript().toString()).stream()
        .noneMatch(ProcessHandle::isAlive) || waitGone(), "the server started for the check is stopped again");
  }

  @Test
  void aServerThatCannotStart_doesNotStopTheWorker_itsToolsAreNotOffered() throws Exception {
    String yaml = WEATHER.replace("'${EVERYTHING_JS}'", "'" + tmp.resolve("missing.js") + "'");
    McpSettings quickStart = new McpSettings(McpSettings.DEFAULT_REQUEST_TIMEOUT, java.time.Duration.ofSeconds(3));
    PlaneAgents.Settings s = new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(agents(yaml)),
        weatherJar("get_weather").toString(), env(), quickStart, List.of());

    try (PlaneAgents plane = PlaneAgents.open(s)) {
      assertEquals(List.of("get_weather", "read_file"), plane.catalog().agent("WEATHER").toolIds());
      assertTrue(!plane.connections().get(0).alive());
    }
  }

  @Test
  void aDefinitionWithErrors_stopsTheStart_withEveryLine() throws Exception {
    PlaneAgents.Settings s = new PlaneAgents.Settings(ResourceSource.classpath(),
        Optional.of(agents("agent_class: RESIDENT\ninstructions: x\ntools: [get_weather]\n")), null, env(),
        McpSettings.DEFAULTS, List.of());

    var e = assertThrows(AgentDefinitionException.class, () -> PlaneAgents.open(s));

    assertEquals(List.of("weather.yaml: agent_class: RESIDENT is already defined in agents/resident.json (built in);"
        + " choose another class name", "weather.yaml: tools[0]: unknown tool 'get_weather' (known: read_file,"
        + " query_ledger, list_packages, gate_check, write_file; an MCP tool is <server>/<tool>)"),
        e.problems().stream().map(Object::toString).toList());
  }

  private static boolean waitGone() {
    for (int i = 0; i < 100; i++) {
      if (ReferenceServers.children(ReferenceServers.everythingScript().toString()).stream()
          .noneMatch(ProcessHandle::isAlive)) {
        return true;
      }
      ReferenceServers.sleep(50);
    }
    return false;
  }
}
