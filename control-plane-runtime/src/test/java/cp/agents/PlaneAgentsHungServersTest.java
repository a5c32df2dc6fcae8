package cp.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.ResourceSource;
import cp.tools.mcp.HangingServer;
import cp.tools.mcp.McpSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers that hang at start (never answer the handshake, ignore SIGTERM, have a child) are
 * started at once, so two of them cost one start timeout, not two; and none of their processes
 * outlives the failed start. Before, they started one after another (N x the start timeout), and a
 * hung server that ignored SIGTERM, and every child of any server, kept running after the command.
 */
class PlaneAgentsHungServersTest {
  /** Small, so the test is quick; the assertion allows up to twice it (not a tight timing). */
  static final Duration START_TIMEOUT = Duration.ofSeconds(3);

  @TempDir Path tmp;

  @AfterEach
  void cleanUp() {
    List.of("hung1", "hung2").forEach(n -> HangingServer.cleanUp(tmp, n));
  }

  @Test
  void twoServersThatHangAtStart_costOneStartTimeout_andLeaveNoProcessRunning() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(dir.resolve("h.yaml"), """
        agent_class: HUNG
        instructions: Your servers hang.
        tools: [read_file, 'hung1/*', 'hung2/*']
        mcp_servers:
          hung1: {command: sh, args: %s}
          hung2: {command: sh, args: %s}
        """.formatted(yamlList(HangingServer.args(tmp, "hung1")), yamlList(HangingServer.args(tmp, "hung2"))));
    McpSettings settings = new McpSettings(Duration.ofSeconds(30), START_TIMEOUT);
    // Warm up: the first open of a JVM loads the catalog's classes and schemas, seconds on a busy machine.
    Path none = Files.createDirectories(tmp.resolve("none"));
    PlaneAgents.open(new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(none), null, System.getenv(),
        settings, List.of())).close();

    long t0 = System.nanoTime();
    try (PlaneAgents plane = PlaneAgents.open(new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(dir),
        null, System.getenv(), settings, List.of()))) {
      Duration took = Duration.ofNanos(System.nanoTime() - t0);

      assertTrue(took.compareTo(START_TIMEOUT.multipliedBy(2)) < 0,
          "two hung servers took " + took.toMillis() + " ms, not about one start timeout (" + START_TIMEOUT.toMillis()
              + " ms)");
      assertEquals(List.of("read_file"), plane.catalog().agent("HUNG").toolIds());
      assertFalse(plane.connections().get(0).alive());
      assertEquals(List.of(), HangingServer.stillRunning(tmp, "hung1"), "hung1's processes, after its start failed");
      assertEquals(List.of(), HangingServer.stillRunning(tmp, "hung2"), "hung2's processes, after its start failed");
    }
  }

  @Test
  void theServersAreHandedToTheCallerBeforeAnyOfThemStarts_soTheirSecretsAreMaskedInTheirStartLogLines()
      throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(dir.resolve("h.yaml"), """
        agent_class: HUNG
        instructions: Your server hangs.
        tools: ['hung1/*']
        mcp_servers:
          hung1: {command: sh, args: %s, env: {API_KEY: '${HUNG_CRED}'}}
        """.formatted(yamlList(HangingServer.args(tmp, "hung1"))));
    java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
    env.put("HUNG_CRED", "hung-cred-0123456789");
    java.util.List<String> seen = new java.util.ArrayList<>();

    try (PlaneAgents plane = PlaneAgents.open(new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(dir),
        null, env, new McpSettings(Duration.ofSeconds(30), START_TIMEOUT), List.of()), servers -> {
          assertFalse(Files.exists(tmp.resolve("hung1.pid")), "handed over after the server started");
          servers.forEach(s -> seen.add(s.name() + " " + ((cp.tools.mcp.McpServerSpec.Stdio) s).env().get("API_KEY")));
        })) {
      assertEquals(List.of("hung1 hung-cred-0123456789"), seen, "the resolved value, which the masker learns");
      assertTrue(Files.exists(tmp.resolve("hung1.pid")), "and then started");
    }
  }

  private static String yamlList(List<String> items) {
    return items.stream().map(i -> "'" + i + "'").collect(java.util.stream.Collectors.joining(", ", "[", "]"));
  }
}
