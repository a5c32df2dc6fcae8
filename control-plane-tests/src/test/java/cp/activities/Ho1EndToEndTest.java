package cp.activities;

import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderFixtures;
import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import cp.gateway.anthropic.AnthropicProvider;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.WoState;
import cp.model.WorkOrder;
import cp.workflows.WorkOrderRunner.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synthesize work order with a tool loop, end to end through real providers: the Anthropic
 * Messages API spoken by a MockWebServer (tool_use, then a JSON answer), and the offline
 * provider answering "what packages are installed?" from the list_packages result.
 */
class Ho1EndToEndTest {
  static final String TOOL_USE_ID = "toolu_01A09q90qw90lq917835lq9";
  static final String TOOL_USE_REPLY = """
      {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
       "content":[{"type":"text","text":"Let me look that up."},
                  {"type":"tool_use","id":"%s","name":"list_packages","input":{}}],
       "stop_reason":"tool_use","stop_sequence":null,
       "usage":{"input_tokens":2100,"output_tokens":45}}""".formatted(TOOL_USE_ID);
  static final String ANSWER_REPLY = """
      {"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
       "content":[{"type":"text","text":"{\\"response_text\\": \\"Two packages are installed: PRC-CLASSIFY-001 and PRC-SYNTHESIZE-001.\\"}"}],
       "stop_reason":"end_turn","stop_sequence":null,
       "usage":{"input_tokens":2250,"output_tokens":30}}""";

  static Ho1Harness h;

  @TempDir Path home;
  @StartStop final MockWebServer server = new MockWebServer();
  final ToolLog tools = new ToolLog();

  @BeforeAll
  static void startService() {
    h = Ho1Harness.start();
  }

  @AfterAll
  static void stopService() {
    h.close();
  }

  @AfterEach
  void closePlane() {
    h.closePlane();
  }

  @Test
  void anthropicToolUse_thenJsonAnswer_completesTheWorkOrder_andSendsTheToolResultBack() throws Exception {
    server.enqueue(json(200, TOOL_USE_REPLY));
    server.enqueue(json(200, ANSWER_REPLY));
    h.plane(home, new AnthropicProvider(ProviderFixtures.settings(base(server), Secret.of(TEST_KEY),
        ProviderSettings.DEFAULT_ANTHROPIC_MODEL)), tools);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    WorkOrder wo = out.workOrder();
    assertEquals(WoState.COMPLETED, wo.state(), () -> String.valueOf(wo.error()));
    assertEquals("Two packages are installed: PRC-CLASSIFY-001 and PRC-SYNTHESIZE-001.",
        wo.outputResult().path("response_text").asText());
    assertEquals(List.of("list_packages"), tools.toolIds());
    assertEquals(2100 + 2250, wo.cost().inputTokens(), "the wire's usage is what is debited");
    assertEquals(45 + 30, wo.cost().outputTokens());

    assertEquals(2, server.getRequestCount());
    JsonNode first = body(server.takeRequest());
    assertTrue(first.path("system").asText().contains("You are ADMIN"));
    assertEquals(WorkOrders.TOOLS.stream().sorted().toList(),
        names(first.path("tools")).stream().sorted().toList(), "the allowed tools are offered");
    assertEquals(1, first.path("messages").size());

    JsonNode second = body(server.takeRequest());
    JsonNode messages = second.path("messages");
    assertEquals(3, messages.size());
    assertEquals(first.path("messages").get(0), messages.get(0));
    JsonNode assistant = messages.get(1);
    assertEquals("assistant", assistant.path("role").asText());
    assertEquals(Json.parse("{\"type\":\"tool_use\",\"id\":\"" + TOOL_USE_ID
        + "\",\"name\":\"list_packages\",\"input\":{}}"), assistant.path("content").get(1));
    JsonNode results = messages.get(2);
    assertEquals("user", results.path("role").asText());
    JsonNode result = results.path("content").get(0);
    assertEquals("tool_result", result.path("type").asText());
    assertEquals(TOOL_USE_ID, result.path("tool_use_id").asText());
    assertTrue(result.path("content").toString().contains("PRC-CLASSIFY-001 1.0.0"), result.toString());
    assertFalse(result.path("is_error").asBoolean(false));

    assertEquals(2, h.successfulExchanges().size());
    assertEquals(List.of("anthropic", "anthropic"), h.successfulExchanges().stream()
        .map(e -> e.metaText("provider_id")).toList());
    assertEquals(2, h.ho1("LLM_CALL").size());
    assertEquals(1, h.ho1("TOOL_CALL").size());
    assertKeyNowhereUnder(home);
  }

  @Test
  void offlineProvider_answersWhatPackagesAreInstalled_fromTheListPackagesResult() {
    h.plane(home, new OfflineProvider(), tools);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    WorkOrder wo = out.workOrder();
    assertEquals(WoState.COMPLETED, wo.state(), () -> String.valueOf(wo.error()));
    assertEquals(List.of("list_packages"), tools.toolIds());
    String text = wo.outputResult().path("response_text").asText();
    assertTrue(text.contains("PRC-CLASSIFY-001") && text.contains("PRC-SYNTHESIZE-001"),
        "the answer reports what the tool returned: " + text);
    List<LedgerEntry> exchanges = h.successfulExchanges();
    assertEquals(2, exchanges.size(), "tool_use round, then the answer");
    assertEquals("tool_use", exchanges.get(0).metaText("finish_reason"));
    assertEquals(OfflineProvider.MODEL_ID, exchanges.get(1).metaText("model_id"));
    assertEquals(1, out.toolCalls().size());
  }

  private static JsonNode body(RecordedRequest request) {
    return Json.parse(request.getBody().utf8());
  }

  private static List<String> names(JsonNode tools) {
    List<String> out = new ArrayList<>();
    tools.forEach(t -> out.add(t.path("name").asText()));
    return out;
  }

  /** The API key appears in no ledger, head or other file of the plane root. */
  private static void assertKeyNowhereUnder(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertFalse(new String(Files.readAllBytes(f), StandardCharsets.UTF_8).contains(TEST_KEY), f + " holds the key");
      }
    }
  }
}
