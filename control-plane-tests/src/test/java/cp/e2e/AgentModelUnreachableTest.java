package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ProviderFixtures;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent whose own model (its definition's {@code model.base_url}) cannot be reached is told so
 * naming where that URL came from, the definition's key and file; before, the advice was to check
 * {@code OPENAI_BASE_URL}, a variable the operator had not set and that played no part.
 */
class AgentModelUnreachableTest {
  @TempDir Path tmp;

  @Test
  void anUnreachableBaseUrlFromTheAgentFile_isNamedAsTheFilesKey_notOpenAiBaseUrl() throws Exception {
    URI closed = ProviderFixtures.closedPort();
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), """
        agent_class: WEATHER
        instructions: You are the weather desk.
        model: {provider: openai, name: 'llama3:8b', base_url: '%s', api_key_env: LOCAL_MODEL_KEY}
        """.formatted(closed.resolve("/v1")));
    Map<String, String> env = PlaneFixture.env(tmp.resolve("home"), Map.of("CP_AGENTS_DIR", agents.toString(),
        "LOCAL_MODEL_KEY", "local-key-1234567890"));

    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      TurnResult r = plane.client.turn(plane.client.startSession("WEATHER"), "weather in Lisbon?");

      assertEquals("error", r.outcome(), r::toString);
      assertTrue(r.response().contains("cannot be reached"), r::toString);
      assertTrue(r.response().contains("model.base_url in weather.yaml"), r::toString);
      assertFalse(r.response().contains("OPENAI_BASE_URL"), r::toString);
    }
  }
}
