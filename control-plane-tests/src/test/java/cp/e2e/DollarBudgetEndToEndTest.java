package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.TurnResult;
import cp.worker.ConfigException;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 items 1 and 3 through a whole plane: a defined agent with a dollar budget whose model has
 * no price does not start; with a price (CP_PRICES_FILE) its turns run, each EXCHANGE records its
 * cost in USD, and the session's profile carries the budget and the smallest call's price.
 */
class DollarBudgetEndToEndTest {
  @TempDir Path tmp;
  @StartStop final MockWebServer local = new MockWebServer();

  private Map<String, String> env(Map<String, String> extra) throws Exception {
    return env(extra, "{work_order_usd: 2.0, session_usd: 5.0}");
  }

  private Map<String, String> env(Map<String, String> extra, String budget) throws Exception {
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), """
        agent_class: WEATHER
        instructions: You are the weather desk of Lisbon.
        model: {provider: openai, name: 'llama3:8b', base_url: '%s', api_key_env: LOCAL_MODEL_KEY}
        budget: %s
        """.formatted(local.url("/v1").toString(), budget));
    Map<String, String> env = new java.util.HashMap<>(PlaneFixture.env(tmp.resolve("home"),
        Map.of("CP_AGENTS_DIR", agents.toString(), "LOCAL_MODEL_KEY", "k-0123456789", "PATH", System.getenv("PATH"))));
    env.putAll(extra);
    return env;
  }

  @Test
  void aDollarBudgetOnAnAgentWhoseModelHasNoPrice_isAStartUpError_namingTheAgentAndTheModel() throws Exception {
    ConfigException e = assertThrows(ConfigException.class,
        () -> PlaneFixture.start(env(Map.of()), PlaneRuntime::builtinTools).close());
    assertTrue(e.getMessage().contains("agent WEATHER has a dollar budget") && e.getMessage().contains("'llama3:8b'")
        && e.getMessage().contains("CP_PRICES_FILE"), e.getMessage());
  }

  /** The plane's environment with one agent file, {@code budget.yaml}, of {@code definition}. */
  private Map<String, String> envWithAgent(String definition, Map<String, String> extra) throws Exception {
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("budget.yaml"), definition);
    Map<String, String> env = new java.util.HashMap<>(PlaneFixture.env(tmp.resolve("home"),
        Map.of("CP_AGENTS_DIR", agents.toString(), "LOCAL_MODEL_KEY", "k-0123456789", "PATH", System.getenv("PATH"))));
    env.putAll(extra);
    return env;
  }

  @Test
  void aDollarBudgetOnAnAgentWhoseFallbackModelHasNoPrice_isAStartUpError_namingTheFileTheEntryAndTheModel()
      throws Exception {
    Path prices = Files.writeString(tmp.resolve("prices.yaml"), "llama3:8b: {input_per_mtok: 1, output_per_mtok: 2}\n");
    String definition = """
        agent_class: BUDGET
        instructions: You answer briefly.
        model: {provider: openai, name: 'llama3:8b', base_url: '%1$s', api_key_env: LOCAL_MODEL_KEY}
        fallback: [{provider: openai, name: unpriced-model, base_url: '%1$s', api_key_env: LOCAL_MODEL_KEY}]
        budget: {session_usd: 0.5, work_order_usd: 0.3}
        """.formatted(local.url("/v1").toString());
    ConfigException e = assertThrows(ConfigException.class, () -> PlaneFixture.start(
        envWithAgent(definition, Map.of("CP_PRICES_FILE", prices.toString())), PlaneRuntime::builtinTools).close());
    assertTrue(e.getMessage().contains("agent BUDGET has a dollar budget") && e.getMessage().contains("budget.yaml")
        && e.getMessage().contains("fallback[0]") && e.getMessage().contains("'unpriced-model'")
        && e.getMessage().contains("CP_PRICES_FILE"), e.getMessage());
    assertFalse(e.getMessage().contains("llama3:8b"), "the primary has a price: " + e.getMessage());

    // With the fallback priced too, the same plane starts.
    Files.writeString(prices, "llama3:8b: {input_per_mtok: 1, output_per_mtok: 2}\n"
        + "unpriced-model: {input_per_mtok: 1, output_per_mtok: 2}\n");
    PlaneFixture.start(envWithAgent(definition, Map.of("CP_PRICES_FILE", prices.toString())),
        PlaneRuntime::builtinTools).close();
  }

  @Test
  void aDollarBudgetOnAnAgentTakingCpFallbackModelsWithAnUnpricedModel_isAStartUpError_namingTheEntry()
      throws Exception {
    String definition = """
        agent_class: BUDGET
        instructions: You answer briefly.
        budget: {session_usd: 0.5, work_order_usd: 0.3}
        """;
    ConfigException e = assertThrows(ConfigException.class, () -> PlaneFixture.start(envWithAgent(definition,
        Map.of("CP_FALLBACK_MODELS", "openai:mystery-2", "OPENAI_API_KEY", "sk-test-0123456789",
            "OPENAI_BASE_URL", local.url("/v1").toString())), PlaneRuntime::builtinTools).close());
    assertTrue(e.getMessage().contains("agent BUDGET has a dollar budget")
        && e.getMessage().contains("CP_FALLBACK_MODELS entry 1") && e.getMessage().contains("'mystery-2'") && e.getMessage().contains("CP_PRICES_FILE"), e.getMessage());
  }

  @Test
  void withAPrice_theTurnRuns_everyExchangeRecordsItsCostInUsd_andTheProfileCarriesTheBudget() throws Exception {
    local.setDispatcher(new LocalOpenAiModel());
    Path prices = Files.writeString(tmp.resolve("prices.yaml"), """
        llama3:8b: {input_per_mtok: 100, output_per_mtok: 200}
        """);
    try (PlaneFixture plane = PlaneFixture.start(env(Map.of("CP_PRICES_FILE", prices.toString())),
        PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");
      assertEquals("success", r.outcome(), r::toString);
      List<LedgerEntry> exchanges = plane.runtime.ledgers().hot().bySession(sid).stream()
          .filter(x -> x.eventType().equals("EXCHANGE")).toList();
      assertEquals(2, exchanges.size());
      double each = (50 * 100.0 + 10 * 200.0) / 1_000_000.0;
      for (LedgerEntry x : exchanges) {
        assertEquals(each, x.meta("cost_usd").asDouble(), 1e-12, x.metadata().toString());
      }
      assertEquals(2 * each, r.costSummary().cost(), 1e-12);
      var profile = plane.client.state(sid).profile();
      assertEquals(5.0, profile.sessionUsd());
      assertEquals(2.0, profile.workOrderUsd());
      assertTrue(profile.smallestCallUsd() > 0, "the smallest call is priced: " + profile);
    }
  }

  @Test
  void aCallItsWorkOrdersDollarBudgetCannotPayFor_isNotSent_andTheTurnNamesThatBudget() throws Exception {
    local.setDispatcher(new LocalOpenAiModel());
    Path prices = Files.writeString(tmp.resolve("prices.json"),
        "{\"llama3:8b\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 2000}}");
    try (PlaneFixture plane = PlaneFixture.start(env(Map.of("CP_PRICES_FILE", prices.toString()),
        "{work_order_usd: 0.5, session_usd: 2.0}"), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");
      assertEquals("budget_exhausted", r.errorCode(), r::toString);
      assertTrue(r.response().contains("budget.work_order_usd = $0.5000"), r.response());
      assertTrue(r.response().contains("USD budget (work_order) has $0.5000 left"), r.response());
      assertEquals(0, local.getRequestCount(), "nothing was sent to the model");
      LedgerEntry rejected = plane.runtime.ledgers().hot().bySession(sid).stream()
          .filter(x -> x.eventType().equals("PROMPT_REJECTED")).findFirst().orElseThrow();
      assertEquals("budget_exhausted", rejected.metaText("error_code"));
    }
  }
}
