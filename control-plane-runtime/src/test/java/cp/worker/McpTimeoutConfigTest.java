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
  void theAgentsDirAndToolsPath_comeFromTheEnvironment() {
    PlaneConfig none = PlaneConfig.fromEnv(Map.of());
    PlaneConfig both = PlaneConfig.fromEnv(Map.of("CP_AGENTS_DIR", "/x/agents", "CP_TOOLS_PATH", "/x/t.jar"));
    assertTrue(!none.extended() && both.extended());
    assertEquals("/x/t.jar", both.toolsPath());
    assertEquals(java.nio.file.Path.of("/x/agents"), both.agentsDir().orElseThrow());
  }
}
