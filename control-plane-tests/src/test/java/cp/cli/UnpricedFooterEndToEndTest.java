package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn answered by a model with no price: its cost is unknown, so the chat/turn footer says so
 * instead of {@code $0.0000} (which reads as free), and the turn's cost summary counts the unpriced
 * calls. With a price, the footer shows dollars as before. Through a whole plane, against a local
 * OpenAI-compatible model.
 */
class UnpricedFooterEndToEndTest {
  @TempDir Path tmp;
  @StartStop final MockWebServer local = new MockWebServer();

  private TurnResult turn(Map<String, String> extra) throws Exception {
    local.setDispatcher(new cp.e2e.LocalOpenAiModel());
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), """
        agent_class: WEATHER
        instructions: You are the weather desk of Lisbon.
        model: {provider: openai, name: 'llama3:8b', base_url: '%s', api_key_env: LOCAL_MODEL_KEY}
        """.formatted(local.url("/v1").toString()));
    Map<String, String> env = new HashMap<>(PlaneFixture.env(tmp.resolve("home"),
        Map.of("CP_AGENTS_DIR", agents.toString(), "LOCAL_MODEL_KEY", "k-0123456789", "PATH", System.getenv("PATH"))));
    env.putAll(extra);
    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");
      assertEquals("success", r.outcome(), r::toString);
      return r;
    }
  }

  @Test
  void aModelWithNoPrice_theFooterSaysTheCostIsUnknown_notZeroDollars() throws Exception {
    TurnResult r = turn(Map.of());
    assertEquals(2, r.costSummary().unpricedCalls(), r::toString);
    String footer = TurnPrinter.footer(r);
    assertTrue(footer.contains("cost unknown (model has no price)"), footer);
    assertFalse(footer.contains("$0.0000"), footer);
  }

  @Test
  void withAPrice_theFooterShowsDollars() throws Exception {
    Path prices = Files.writeString(tmp.resolve("prices.yaml"), "llama3:8b: {input_per_mtok: 100, output_per_mtok: 200}\n");
    TurnResult r = turn(Map.of("CP_PRICES_FILE", prices.toString()));
    assertNull(r.costSummary().unpricedCalls(), r::toString);
    String footer = TurnPrinter.footer(r);
    assertTrue(footer.contains("$0.0140"), footer);
  }
}
