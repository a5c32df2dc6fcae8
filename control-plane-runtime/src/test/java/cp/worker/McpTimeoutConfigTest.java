package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpTimeoutConfigTest {
  @Test
  void theMcpRequestTimeout_defaultsUnderTheToolActivitys_andMayNotReachIt() {
    assertEquals(Duration.ofSeconds(30), PlaneConfig.fromEnv(Map.of()).mcpSettings().requestTimeout());
    assertEquals(Duration.ofSeconds(10), PlaneConfig.fromEnv(Map.of("CP_TOOL_TIMEOUT_MS", "20000"))
        .mcpSettings().requestTimeout());
    assertEquals(Duration.ofMillis(1500), PlaneConfig.fromEnv(Map.of("CP_MCP_TIMEOUT_MS", "1500"))
        .mcpSettings().requestTimeout());

    var e = assertThrows(ConfigException.class, () -> PlaneConfig.fromEnv(Map.of("CP_MCP_TIMEOUT_MS", "60000"))
        .mcpSettings());
    assertTrue(e.getMessage().contains("below CP_TOOL_TIMEOUT_MS 60000"), e.getMessage());
  }

  @Test
  void theMcpStartTimeout_defaultsToTwentySeconds_andIsRefusedNamingTheVariableWhenBad() {
    assertEquals(Duration.ofSeconds(20), PlaneConfig.fromEnv(Map.of()).mcpSettings().startTimeout());
    assertEquals(Duration.ofMillis(3000), PlaneConfig.fromEnv(Map.of("CP_MCP_START_TIMEOUT_MS", "3000"))
        .mcpSettings().startTimeout());
    for (String bad : java.util.List.of("0", "-5", "soon", "600001")) {
      var e = assertThrows(ConfigException.class, () -> PlaneConfig.fromEnv(Map.of("CP_MCP_START_TIMEOUT_MS", bad))
          .mcpSettings());
      assertEquals("CP_MCP_START_TIMEOUT_MS", e.variable(), bad);
    }
  }

  @Test
  void theJavaToolCallTimeout_defaultsUnderTheToolActivitys_andMayNotReachIt() {
    assertEquals(Duration.ofSeconds(30), PlaneConfig.fromEnv(Map.of()).javaToolTimeout());
    assertEquals(Duration.ofSeconds(10), PlaneConfig.fromEnv(Map.of("CP_TOOL_TIMEOUT_MS", "20000")).javaToolTimeout());
    assertEquals(Duration.ofMillis(2500), PlaneConfig.fromEnv(Map.of("CP_JAVA_TOOL_TIMEOUT_MS", "2500"))
        .javaToolTimeout());

    var e = assertThrows(ConfigException.class, () -> PlaneConfig.fromEnv(Map.of("CP_JAVA_TOOL_TIMEOUT_MS", "60000"))
        .javaToolTimeout());
    assertEquals("CP_JAVA_TOOL_TIMEOUT_MS", e.variable());
    assertTrue(e.getMessage().contains("below CP_TOOL_TIMEOUT_MS 60000"), e.getMessage());
  }

  @Test
  void codeExtensions_makeTheWorkerExtended_withoutTheVariables() {
    PlaneConfig base = PlaneConfig.fromEnv(Map.of());
    PlaneConfig withCode = base.withExtensions(new PlaneExtensions(java.util.List.of(),
        java.util.List.of(cp.agents.DefinitionSource.ofText("w", "agent_class: W\ninstructions: x\n"))));
    assertTrue(!base.extended() && withCode.extended());
    assertEquals(1, withCode.agentSettings().codeDefinitions().size());
  }

  @Test
  void theAgentsDirAndToolsPath_comeFromTheEnvironment() {
    PlaneConfig none = PlaneConfig.fromEnv(Map.of());
    PlaneConfig both = PlaneConfig.fromEnv(Map.of("CP_AGENTS_DIR", "/x/agents", "CP_TOOLS_PATH", "/x/t.jar"));
    assertTrue(!none.extended() && both.extended());
    assertEquals("/x/t.jar", both.toolsPath());
    assertEquals(java.nio.file.Path.of("/x/agents"), both.agentsDir().orElseThrow());
  }
}
