package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link EvalScope}: the run id, the run's own settings and the ids derived from it. */
class EvalScopeTest {
  @TempDir
  Path home;

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("CP_HOME", home.toString());
    env.put("CP_PROVIDER", "openai");
    env.put("OPENAI_API_KEY", "sk-test");
    env.put("CP_LEDGER_URL", "jdbc:postgresql://db/prod");
    return env;
  }

  private static EvalSuite suite(String text) {
    return new EvalSuite(1, "t", List.of(new EvalCase("c1", new CaseInput(text, "ADMIN", null, null, 1, null), null,
        null, null)));
  }

  private static EvalRunOptions opts(String model, Path agents, boolean live) {
    return new EvalRunOptions(Optional.ofNullable(model), Optional.ofNullable(agents), Optional.empty(), 2, live);
  }

  @Test
  void theRunIdIsTheSameForTheSameSuiteAndSettings_andChangesWithEachOfThem() throws Exception {
    Path agents = Files.createDirectories(home.resolve("agents"));
    Files.writeString(agents.resolve("a.yaml"), "agent_class: A\ninstructions: one\n");
    String base = EvalScope.of(env(), suite("hi"), opts(null, agents, false)).runId();
    assertTrue(base.matches("EVR-[0-9a-f]{12}"), base);
    assertEquals(base, EvalScope.of(env(), suite("hi"), new EvalRunOptions(Optional.empty(), Optional.of(agents),
        Optional.empty(), 7, false)).runId(), "concurrency is not part of the run");
    assertNotEquals(base, EvalScope.of(env(), suite("hello"), opts(null, agents, false)).runId());
    assertNotEquals(base, EvalScope.of(env(), suite("hi"), opts("gpt-4o", agents, false)).runId());
    assertNotEquals(base, EvalScope.of(env(), suite("hi"), opts(null, agents, true)).runId());
    Files.writeString(agents.resolve("a.yaml"), "agent_class: A\ninstructions: two\n");
    assertNotEquals(base, EvalScope.of(env(), suite("hi"), opts(null, agents, false)).runId(),
        "an edited definition is another run");
  }

  @Test
  void theRunHasItsOwnPlaneRoot_taskQueue_andJsonlLedgers_andTheModelOption() {
    IllegalArgumentException named = assertThrows(IllegalArgumentException.class,
        () -> EvalScope.of(env(), suite("hi"), opts("offline:rules", null, false)));
    assertTrue(named.getMessage().contains("the run's provider is offline, which has no models"), named.getMessage());
    // With the worker's provider openai, "opneai:gpt-4o" is a model name for openai (which says whether it knows it).
    EvalScope s = EvalScope.of(env(), suite("hi"), opts("offline:", null, false));
    assertEquals(home.resolve("evals").resolve(s.runId()), s.root());
    assertEquals(s.root().resolve("home").toString(), s.env().get("CP_HOME"));
    assertEquals("cp-eval-" + s.runId(), s.env().get("CP_TASK_QUEUE"));
    assertEquals(null, s.env().get("CP_LEDGER_URL"), "eval ledgers are JSONL under the run, never production's");
    assertEquals("offline", s.env().get("CP_PROVIDER"));
    assertEquals(null, s.env().get("CP_MODEL"));
    Map<String, String> a = new HashMap<>();
    EvalScope.model(a, "anthropic:claude-x");
    assertEquals(Map.of("CP_PROVIDER", "anthropic", "CP_MODEL", "claude-x"), a);
    Map<String, String> m = new HashMap<>();
    EvalScope.model(m, "llama3:8b");
    assertEquals(Map.of("CP_MODEL", "llama3:8b"), m, "a colon that does not follow a provider is the model's");
    assertTrue(s.sessionId("c1", 0).matches("SES-[0-9a-f]{8}"));
    assertNotEquals(s.sessionId("c1", 0), s.sessionId("c1", 1));
    assertNotEquals(s.sessionId("c1", 0), s.sessionId("c2", 0));
  }

  @Test
  void badOptions_nameTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EvalScope.of(env(), suite("hi"), opts(null, home.resolve("missing"), false)));
    assertTrue(e.getMessage().startsWith("--agents-dir "), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> EvalScope.of(env(), suite("hi"), opts(" ", null, false)));
    cp.worker.ConfigException noKey = assertThrows(cp.worker.ConfigException.class,
        () -> EvalScope.of(env(), suite("hi"), opts("anthropic:claude-haiku-4-5", null, false)));
    assertTrue(noKey.getMessage().contains("ANTHROPIC_API_KEY"), noKey.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new EvalRunOptions(Optional.empty(), Optional.empty(),
        Optional.empty(), 0, false));
  }
}
