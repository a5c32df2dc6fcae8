package cp.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.AgentConfig;
import cp.contracts.ResourceSource;
import cp.model.Json;
import cp.tools.ToolResult;
import cp.tools.mcp.CapturedLog;
import cp.tools.mcp.McpConnection;
import cp.tools.mcp.McpSettings;
import cp.tools.mcp.McpToolList;
import cp.tools.mcp.MisbehavingServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool an MCP server lists with a schema that is not a JSON Schema, or under a name it already
 * listed, is left out (one log line naming the server, the tool and the problem); the server's
 * other tools and every agent keep working. Before, the catalog refused the whole start (exit 2,
 * ADMIN's chat included) naming a definition file the operator had not got wrong.
 */
class PlaneAgentsBadMcpToolsTest {
  @TempDir Path tmp;
  @RegisterExtension final CapturedLog log = CapturedLog.of(McpConnection.class);

  private PlaneAgents open(String mode) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(dir.resolve("f.yaml"), """
        agent_class: FAKER
        instructions: You use the fake server.
        tools: [read_file, 'fake/*']
        mcp_servers:
          fake:
            command: python3
            args: ['-u', '%s']
            env: {MODE: %s}
        """.formatted(MisbehavingServer.script(tmp), mode));
    return PlaneAgents.open(new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(dir), null, System.getenv(),
        McpSettings.DEFAULTS, List.of()));
  }

  @Test
  void aToolWithAnInvalidSchema_isLeftOut_andTheRestStarts() throws Exception {
    try (PlaneAgents plane = open("badschema")) {
      AgentConfig faker = plane.catalog().agent("FAKER");
      assertEquals(List.of("read_file", "fake/echo", "fake/junkreply", "fake/crash"), faker.toolIds());
      assertFalse(plane.registry().contains("fake/bad"));
      assertTrue(plane.catalog().agentClasses().containsAll(List.of("ADMIN", "RESIDENT", "FAKER")));

      McpToolList listed = plane.connections().get(0).tools();
      assertEquals(List.of("bad"), listed.leftOut().stream().map(McpToolList.LeftOut::tool).toList());
      assertTrue(listed.leftOut().get(0).problem().contains("not a valid JSON Schema"), listed::toString);
      assertEquals(ToolResult.ok("called echo with {\"m\": \"ok\"}"),
          plane.connections().get(0).call("echo", Json.parse("{\"m\":\"ok\"}")));
      plane.connections().get(0).call("crash", Json.parse("{}"));
      assertTrue(plane.connections().get(0).call("echo", Json.parse("{}")).ok(), "started again, listed again");
      assertEquals(2, plane.connections().get(0).starts());
    }
    List<String> w = log.warnings().stream().filter(l -> l.contains("left out")).toList();
    assertEquals(1, w.size(), w::toString);
    assertTrue(w.get(0).contains("fake") && w.get(0).contains("'bad'") && w.get(0).contains("left out"), w.get(0));
  }

  @Test
  void aToolListedTwice_isLeftOutTheSecondTime() throws Exception {
    try (PlaneAgents plane = open("dupe")) {
      assertEquals(List.of("read_file", "fake/echo", "fake/junkreply", "fake/crash"),
          plane.catalog().agent("FAKER").toolIds());
      assertEquals("Echo", plane.catalog().agent("FAKER").tool("fake/echo").orElseThrow().description(),
          "the first listing is kept");
      McpToolList listed = plane.connections().get(0).tools();
      assertEquals(List.of("echo"), listed.leftOut().stream().map(McpToolList.LeftOut::tool).toList());
      assertTrue(listed.leftOut().get(0).problem().contains("listed twice"), listed::toString);
    }
    assertEquals(1, log.warnings().size(), log.warnings()::toString);
  }
}
