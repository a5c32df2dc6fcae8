package cp.e2e;

import static cp.e2e.ScriptedModel.answers;
import static cp.e2e.ScriptedModel.callsTool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.agents.AgentDefinitionException;
import cp.client.ControlPlaneClient;
import cp.ledger.LedgerEntry;
import cp.tools.registry.ToolRegistryException;
import cp.tools.spi.ToolBinding;
import cp.tools.spi.ToolCallResult;
import cp.tools.spi.ToolParam;
import cp.worker.ControlPlaneWorker;
import cp.worker.PlaneFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedding builder (issue 22): a worker in the application's own main(), with a Java tool and
 * an agent definition registered in code, runs real turns; a bad tool or definition registered in
 * code stops build() with the same one-line problems as the environment's.
 */
class EmbeddedWorkerBuilderTest {
  @TempDir Path tmp;

  record CityArgs(@ToolParam("City name") String city) {}

  static final String WEATHER = """
      agent_class: WEATHER
      instructions: You tell the weather.
      tools: [get_weather]
      """;

  @Test
  void aWorkerBuiltInCode_withAToolAndADefinitionRegisteredInCode_runsTheirTurns() {
    ScriptedModel model = new ScriptedModel();
    model.synthesize(callsTool("get_weather", "{\"city\":\"Porto\"}"), answers("Porto: 18 C."));
    AtomicReference<String> keySeen = new AtomicReference<>();
    ToolBinding weather = ToolBinding.of("get_weather", "Current weather for a city.", CityArgs.class, (a, ctx) -> {
      keySeen.set(ctx.idempotencyKey());
      return ToolCallResult.text(a.city() + ": 18 C, cloudy (for " + ctx.agentClass() + ")");
    });

    try (ControlPlaneWorker worker = ControlPlaneWorker.builder()
        .environment(PlaneFixture.env(tmp.resolve("home"), Map.of()))
        .embeddedTemporal()
        .provider(model)
        .tool(weather)
        .agent("weather (registered in code)", WEATHER)
        .build()
        .start()) {
      ControlPlaneClient client = ControlPlaneClient.newBuilder(worker.connection().client()).build();
      String sid = client.startSession("WEATHER");

      assertEquals("success", client.turn(sid, "weather in Porto?").outcome());

      LedgerEntry call = worker.runtime().ledgers().ho1().bySession(sid).stream()
          .filter(e -> "TOOL_CALL".equals(e.eventType())).findFirst().orElseThrow();
      assertEquals("java", call.metaText("origin"));
      assertEquals("Porto: 18 C, cloudy (for WEATHER)", call.metaText("result"));
      assertTrue(keySeen.get().startsWith(sid + "/turn-0001/"), keySeen.get());
      assertEquals(List.of("ADMIN", "RESIDENT", "WEATHER"), worker.runtime().catalog().agentClasses());
      assertEquals("java", worker.runtime().agents().orElseThrow().registry().find("get_weather").orElseThrow()
          .origin().wireName());
    }
  }

  @Test
  void aJavaToolThatHangs_endsAsToolTimeout_andOneThatThrows_asToolFailureWithItsFirstLine_theTurnGoesOn() {
    ScriptedModel model = new ScriptedModel();
    model.synthesize(callsTool("get_weather", "{\"city\":\"Faro\"}"), callsTool("get_tides", "{\"city\":\"Faro\"}"),
        answers("Neither tool answered."));
    ToolBinding hangs = ToolBinding.of("get_weather", "Current weather for a city.", CityArgs.class, (a, ctx) -> {
      Thread.sleep(60_000);
      return ToolCallResult.text("too late");
    });
    ToolBinding throwsOne = ToolBinding.of("get_tides", "Tides of a city.", CityArgs.class, (a, ctx) -> {
      throw new IllegalStateException("tide service refused\n\tat acme.Tides.call(Tides.java:42)");
    });

    try (ControlPlaneWorker worker = ControlPlaneWorker.builder()
        .environment(PlaneFixture.env(tmp.resolve("home"), Map.of()))
        .embeddedTemporal().provider(model).tool(hangs).tool(throwsOne)
        .agent("weather.yaml", WEATHER.replace("[get_weather]", "[get_weather, get_tides]")
            + "tool_timeout_seconds: {get_weather: 1}\n")
        .build().start()) {
      ControlPlaneClient client = ControlPlaneClient.newBuilder(worker.connection().client()).build();
      String sid = client.startSession("WEATHER");
      long start = System.nanoTime();

      assertEquals("success", client.turn(sid, "weather and tides in Faro?").outcome());

      List<LedgerEntry> calls = worker.runtime().ledgers().ho1().bySession(sid).stream()
          .filter(e -> "TOOL_CALL".equals(e.eventType())).toList();
      assertEquals("tool_timeout", calls.get(0).metaText("error_code"), calls.get(0).metaText("result"));
      assertTrue(calls.get(0).metaText("result").contains("1000 ms"), calls.get(0).metaText("result"));
      assertEquals("tool_failure", calls.get(1).metaText("error_code"));
      assertEquals("get_tides failed: IllegalStateException: tide service refused", calls.get(1).metaText("result"),
          "the message's first line, no stack");
      assertTrue(java.time.Duration.ofNanos(System.nanoTime() - start).toSeconds() < 30, "the hang was abandoned");
    }
  }

  @Test
  void aToolTimeoutNotShorterThanTheToolActivitys_stopsTheBuild_namingTheVariable() {
    ToolBinding weather = ToolBinding.of("get_weather", "Current weather for a city.", CityArgs.class,
        (a, ctx) -> ToolCallResult.text("sunny"));
    var builder = ControlPlaneWorker.builder()
        .environment(PlaneFixture.env(tmp.resolve("home"), Map.of("CP_TOOL_TIMEOUT_MS", "20000")))
        .embeddedTemporal().tool(weather)
        .agent("weather.yaml", WEATHER + "tool_timeout_seconds: {get_weather: 20}\n");

    cp.worker.ConfigException e = assertThrows(cp.worker.ConfigException.class, builder::build);

    assertEquals("CP_TOOL_TIMEOUT_MS", e.variable());
    assertTrue(e.getMessage().startsWith("WEATHER's tool get_weather has timeout_seconds 20, not shorter than the tool"
        + " activity's 20000 ms"), e.getMessage());
  }

  @Test
  void aBadDefinitionRegisteredInCode_stopsTheBuild_namingItAndTheKey() {
    var builder = ControlPlaneWorker.builder()
        .environment(PlaneFixture.env(tmp.resolve("home"), Map.of()))
        .embeddedTemporal()
        .agent("weather (registered in code)", WEATHER);

    AgentDefinitionException e = assertThrows(AgentDefinitionException.class, builder::build);

    assertEquals(List.of("weather (registered in code): tools[0]: unknown tool 'get_weather' (known: read_file,"
        + " query_ledger, list_packages, gate_check, write_file; an MCP tool is <server>/<tool>)"),
        e.problems().stream().map(Object::toString).toList());
  }

  @Test
  void aToolRegisteredInCodeUnderABuiltInsName_stopsTheBuild_namingBothOrigins() {
    ToolBinding clash = ToolBinding.of("read_file", "Reads something else.", CityArgs.class,
        (a, ctx) -> ToolCallResult.text("no"));
    var builder = ControlPlaneWorker.builder()
        .environment(PlaneFixture.env(tmp.resolve("home"), Map.of()))
        .embeddedTemporal()
        .tool(clash);

    ToolRegistryException e = assertThrows(ToolRegistryException.class, builder::build);

    assertEquals(List.of("duplicate tool name 'read_file': read_file (builtin, built in) and read_file (java,"
        + " registered in code); rename one or remove one"), e.problems());
  }
}
