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
