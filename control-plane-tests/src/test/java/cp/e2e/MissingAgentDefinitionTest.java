package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.ControlPlaneClient;
import cp.model.TurnResult;
import cp.tools.mcp.CapturedLog;
import cp.worker.PlaneConfig;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker started without the definition of a session's agent class (its CP_AGENTS_DIR unset or
 * another directory) answers the session's turn as unavailable, and says why in its own log: one
 * warning naming the class and where it reads definitions from. Before, the user read "temporarily
 * unavailable … What failed: agent class WEATHER not found" and the worker logged nothing.
 */
class MissingAgentDefinitionTest {
  @TempDir Path tmp;
  @RegisterExtension final CapturedLog log = CapturedLog.named("cp");

  @Test
  void aWorkerWithoutTheDefinitionOfASessionsClass_logsOneWarningNamingTheClassAndWhereDefinitionsComeFrom()
      throws Exception {
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), "agent_class: WEATHER\ninstructions: You tell the weather.\n"
        + "tools: [read_file]\n");
    Map<String, String> env = PlaneFixture.env(tmp.resolve("home"), Map.of("CP_AGENTS_DIR", agents.toString()));
    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      ControlPlaneClient client = plane.client;
      String sid = client.startSession("WEATHER");
      assertEquals("success", client.turn(sid, "hello").outcome());

      // The worker that knew WEATHER goes; one started from another directory takes over.
      plane.worker.close();
      Path other = Files.createDirectories(tmp.resolve("other-agents"));
      Map<String, String> without = new HashMap<>(env);
      without.put("CP_AGENTS_DIR", other.toString());
      PlaneConfig config = PlaneConfig.fromEnv(without);
      try (PlaneRuntime runtime = PlaneRuntime.open(config, PlaneRuntime::builtinTools)) {
        PlaneWorker second = PlaneWorker.start(plane.connection, runtime, "test");
        try {
          TurnResult second1 = client.turn(sid, "hello again");
          TurnResult second2 = client.turn(sid, "and again");

          assertEquals("error", second1.outcome(), second1::toString);
          assertTrue(second1.response().contains("WEATHER"), second1::toString);
          List<String> warnings = log.warnings().stream().filter(w -> w.contains("WEATHER")).toList();
          assertEquals(1, warnings.size(), "one warning, not one per activity or turn: " + warnings);
          assertTrue(warnings.get(0).contains("CP_AGENTS_DIR") && warnings.get(0).contains(other.toString()),
              warnings.get(0));
          assertEquals("error", second2.outcome(), second2::toString);
        } finally {
          second.close();
        }
      }
    }
  }
}
