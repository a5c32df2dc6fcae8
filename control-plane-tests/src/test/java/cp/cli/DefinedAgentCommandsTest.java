package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl session start --agent NAME} and {@code cpctl chat --agent NAME} against a shared
 * service whose worker defines a class (CP_AGENTS_DIR) that the CLI's own environment does not:
 * the CLI asks the workers (AgentClasses) and starts the defined class like a built-in one; an
 * unknown class is refused at start naming the classes the workers know.
 */
class DefinedAgentCommandsTest {
  @TempDir static Path home;
  @TempDir static Path agents;
  private static SharedService service;
  private static Map<String, String> env;

  @BeforeAll
  static void startServiceAndWorker() throws Exception {
    Files.writeString(agents.resolve("weather.yaml"), "agent_class: WEATHER\ninstructions: You tell the weather.\n"
        + "tools: [list_packages]\n");
    service = SharedService.start(home, Map.of("CP_AGENTS_DIR", agents.toString()));
    env = service.env();
    env.remove("CP_AGENTS_DIR"); // the CLI knows only the built-ins: the worker knows WEATHER
  }

  @AfterAll
  static void stop() {
    if (service != null) {
      service.close();
    }
  }

  @Test
  void sessionStartWithADefinedClass_startsIt_andItsTurnsRun() {
    var start = run(env, "session", "start", "--agent", "weather");
    assertEquals(Cpctl.OK, start.code(), start::describe);
    String sid = start.out().trim();

    var turn = run(env, "turn", "--session", sid, "what packages are installed?");

    assertEquals(Cpctl.OK, turn.code(), turn::describe);
    assertTrue(service.runtime.ledgers().ho2("WEATHER").readAll().size() > 0, "WEATHER's own HO2 ledger");
  }

  @Test
  void chatWithADefinedClass_talksToIt() {
    var r = runWithInput(env, "hello\n", "chat", "--agent", "WEATHER");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("Session (SES-[0-9a-f]{8}) ended: 1 turn\\(s\\)")
        .matcher(r.out());
    assertTrue(m.find(), r::describe);
    assertTrue(!service.runtime.ledgers().ho2("WEATHER").bySession(m.group(1)).isEmpty(),
        "the session ran as WEATHER: " + r.describe());
  }

  @Test
  void anUnknownClass_isRefusedAtStart_namingTheClassesTheWorkersKnow() {
    var r = run(env, "session", "start", "--agent", "NOPE");

    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("unknown agent class 'NOPE' (known: ADMIN, RESIDENT, WEATHER)"), r::describe);
  }
}
