package cp.cli;

import static cp.cli.LedgerLines.ofType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import cp.client.ControlPlaneClient;
import cp.model.Json;
import cp.tools.mcp.ReferenceServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker killed with SIGKILL while an MCP call is in flight (issue 22 "Done when"): processes as
 * an operator runs them ({@code cpctl dev-server}, two {@code cpctl worker}s with a definition in
 * CP_AGENTS_DIR, a {@code cpctl turn} client), the offline model asked in the explicit form to call
 * server-everything's trigger-long-running-operation (3 s). Worker 1 is killed 1 s into the call;
 * worker 2 takes the activity over after its heartbeat timeout and calls the tool again, with the
 * same idempotency key. The turn completes; the ledger shows the call once (the second attempt's
 * record), while the server ran it twice: what the README says about calls that can run twice.
 */
class McpCrashIT {
  static final String TOOL = "everything/trigger-long-running-operation";
  /** Long enough to be killed in, short enough for the retry to finish well inside the defaults. */
  static final int OPERATION_SECONDS = 3;
  /** How far into the call the worker dies: the request has reached the server by then. */
  static final Duration KILL_AFTER = Duration.ofSeconds(1);

  @TempDir Path dir;

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void workerKilledDuringAnMcpCall_theTurnCompletes_andTheLedgerShowsTheCallOnce() throws Exception {
    Path agents = Files.createDirectories(dir.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), """
        agent_class: WEATHER
        instructions: You run long operations.
        tools: ['everything/trigger-long-running-operation']
        mcp_servers:
          everything: {command: '${NODE}', args: ['${EVERYTHING_JS}', stdio]}
        """);
    try (CpctlProcesses procs = CpctlProcesses.onClasspath(dir)) {
      int port = procs.startDevServer();
      Path home = dir.resolve("home");
      Map<String, String> env = new HashMap<>();
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_HOME", home.toString());
      env.put("CP_TASK_QUEUE", "mcp-crash");
      env.put("CP_PROVIDER", "offline");
      env.put("CP_HEARTBEAT_TIMEOUT_MS", MultiProcessCrashIT.HEARTBEAT_TIMEOUT_MS);
      env.put("PATH", System.getenv("PATH"));
      Map<String, String> workerEnv = new HashMap<>(env);
      workerEnv.put("CP_AGENTS_DIR", agents.toString());
      workerEnv.put("NODE", ReferenceServers.node());
      workerEnv.put("EVERYTHING_JS", ReferenceServers.everythingScript().toString());

      CpctlProcesses.Cli worker1 = procs.start("worker-1", workerEnv, "worker");
      worker1.awaitOutput("sticky off");
      CliHarness.Run start = CliHarness.run(env, "session", "start", "--agent", "WEATHER");
      assertEquals(Cpctl.OK, start.code(), start::describe);
      String sid = start.out().trim();
      CpctlProcesses.Cli turn = procs.start("turn", env, "turn", "--session", sid, "--json",
          "call everything_trigger-long-running-operation {\"duration\": " + OPERATION_SECONDS + ", \"steps\": 3}");

      try (ControlPlaneClient client = ControlPlaneClient.connect("127.0.0.1:" + port, "default")) {
        awaitStep(client, sid, "tool " + TOOL, procs);
      }
      Thread.sleep(KILL_AFTER.toMillis());
      worker1.kill();
      long killedAt = System.nanoTime();
      CpctlProcesses.Cli worker2 = procs.start("worker-2", workerEnv, "worker");

      assertEquals(0, turn.awaitExit(), procs::describeAll);
      System.out.printf("McpCrashIT: SIGKILL during the MCP call -> turn done in %d ms (new worker start included)%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt));
      JsonNode result = Json.parse(turn.stdout());
      assertEquals("success", result.path("outcome").asText(), turn::describe);
      worker2.stop();

      List<JsonNode> calls = ofType(LedgerLines.read(home.resolve(LedgerLines.HO1)), "TOOL_CALL");
      assertEquals(1, calls.size(), "one record of the call: " + calls);
      JsonNode call = calls.get(0).path("metadata");
      assertEquals(TOOL, call.path("tool_id").asText());
      assertEquals("mcp:everything", call.path("origin").asText());
      assertEquals("ok", call.path("status").asText(), call::toString);
      assertEquals(2, call.path("attempt").asInt(), "recorded by the second attempt, on worker 2");
      assertTrue(call.path("result").asText().startsWith("Long running operation completed. Duration: "
          + OPERATION_SECONDS), call::toString);
      CliHarness.Run verify = CliHarness.run(Map.of("CP_HOME", home.toString()), "ledger", "verify");
      assertEquals(Cpctl.OK, verify.code(), verify::describe);
    }
  }

  private static void awaitStep(ControlPlaneClient client, String sid, String step, CpctlProcesses procs)
      throws InterruptedException {
    long deadline = System.nanoTime() + CpctlProcesses.STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> now;
      try {
        now = client.progress(sid);
      } catch (RuntimeException notYet) {
        now = Optional.empty();
      }
      if (now.isPresent() && now.get().equals(step)) {
        return;
      }
      Thread.sleep(CpctlProcesses.POLL.toMillis());
    }
    fail("the turn never reached '" + step + "'\n" + procs.describeAll());
  }
}
