package cp.gateway.anthropic;

import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.assertJson;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.json;
import static cp.gateway.ProviderFixtures.listPackagesTool;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ProviderReply;
import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import java.net.URI;
import java.util.List;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** Successful Messages API round trips: the exact request sent and the reply mapped back. */
class AnthropicProviderTest {
  @StartStop final MockWebServer server = new MockWebServer();

  private static final String TEXT_REPLY = """
      {"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant",
       "model":"claude-sonnet-4-5-20250929",
       "content":[{"type":"text","text":"Hello! How can I help?"}],
       "stop_reason":"end_turn","stop_sequence":null,
       "usage":{"input_tokens":12,"output_tokens":7}}""";

  private static final String TOOL_USE_REPLY = """
      {"id":"msg_01Aq9w938a90dw8q","type":"message","role":"assistant",
       "model":"claude-sonnet-4-5-20250929",
       "content":[{"type":"text","text":"Let me check."},
                  {"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9",
                   "name":"list_packages","input":{"prefix":"cp-"}}],
       "stop_reason":"tool_use","stop_sequence":null,
       "usage":{"input_tokens":380,"output_tokens":62,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}""";

  private AnthropicProvider provider() {
    return new AnthropicProvider(settings(base(server), Secret.of(TEST_KEY), ProviderSettings.DEFAULT_ANTHROPIC_MODEL));
  }

  @Test
  void textReply_mapsContentUsageModelAndStop_andSendsAnthropicHeaders() throws Exception {
    server.enqueue(json(200, TEXT_REPLY));

    ProviderReply reply = provider().send(request().system("Be brief.").build());

    assertEquals(List.of(ContentBlock.text("Hello! How can I help?")), reply.content());
    assertEquals(12, reply.inputTokens());
    assertEquals(7, reply.outputTokens());
    assertEquals("claude-sonnet-4-5-20250929", reply.modelId());
    assertEquals(ProviderReply.STOP, reply.finishReason());
    assertFalse(reply.usageEstimated());

    RecordedRequest sent = server.takeRequest();
    assertEquals("POST", sent.getMethod());
    assertEquals("/v1/messages", sent.getUrl().encodedPath());
    assertEquals(TEST_KEY, sent.getHeaders().get("x-api-key"));
    assertEquals("2023-06-01", sent.getHeaders().get("anthropic-version"));
    assertEquals("application/json", sent.getHeaders().get("content-type"));
    assertJson("""
        {"model":"claude-sonnet-4-5","max_tokens":256,"temperature":0.0,"system":"Be brief.",
         "messages":[{"role":"user","content":[{"type":"text","text":"hello"}]}]}""",
        sent.getBody().utf8());
    assertEquals(1, server.getRequestCount());
  }

  @Test
  void toolUseThenToolResult_sendsToolsAndToolResultBlocksVerbatim() throws Exception {
    server.enqueue(json(200, TOOL_USE_REPLY));
    server.enqueue(json(200, TEXT_REPLY));
    AnthropicProvider provider = provider();
    PromptRequest first = request()
        .system("You manage packages.")
        .model("claude-haiku-4-5")
        .temperature(0.2)
        .messages(List.of(Message.user("What packages are installed?")))
        .tools(List.of(listPackagesTool()))
        .build();

    ProviderReply toolTurn = provider.send(first);

    assertEquals(ProviderReply.TOOL_USE, toolTurn.finishReason());
    assertEquals(380, toolTurn.inputTokens());
    ContentBlock call = toolTurn.content().get(1);
    assertEquals("toolu_01A09q90qw90lq917835lq9", call.id());
    assertEquals("list_packages", call.name());
    assertEquals(Json.parse("{\"prefix\":\"cp-\"}"), call.input());

    PromptRequest second = first.toBuilder()
        .messages(List.of(
            Message.user("What packages are installed?"),
            new Message(Message.ASSISTANT, toolTurn.content()),
            new Message(Message.USER, List.of(
                ContentBlock.toolResult(call.id(), "cp-core 1.0\ncp-ledger 1.2", false),
                ContentBlock.toolResult("toolu_02", "permission denied", true)))))
        .build();
    ProviderReply finalTurn = provider.send(second);

    assertEquals("Hello! How can I help?", finalTurn.content().get(0).text());
    server.takeRequest();
    assertJson("""
        {"model":"claude-haiku-4-5","max_tokens":256,"temperature":0.2,"system":"You manage packages.",
         "messages":[
           {"role":"user","content":[{"type":"text","text":"What packages are installed?"}]},
           {"role":"assistant","content":[
             {"type":"text","text":"Let me check."},
             {"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"list_packages",
              "input":{"prefix":"cp-"}}]},
           {"role":"user","content":[
             {"type":"tool_result","tool_use_id":"toolu_01A09q90qw90lq917835lq9",
              "content":"cp-core 1.0\\ncp-ledger 1.2"},
             {"type":"tool_result","tool_use_id":"toolu_02","content":"permission denied","is_error":true}]}],
         "tools":[{"name":"list_packages","description":"List installed packages",
                   "input_schema":{"type":"object","properties":{"prefix":{"type":"string"}}}}]}""",
        server.takeRequest().getBody().utf8());
    assertEquals(2, server.getRequestCount());
  }

  @Test
  void maxTokensStop_isLength() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("end_turn", "max_tokens")));

    assertEquals(ProviderReply.LENGTH, provider().send(request().build()).finishReason());
  }

  @Test
  void cacheTokens_countAsInput() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("\"input_tokens\":12",
        "\"input_tokens\":12,\"cache_creation_input_tokens\":100,\"cache_read_input_tokens\":1000")));

    ProviderReply reply = provider().send(request().build());
    assertEquals(1112, reply.inputTokens());
    assertEquals(1000, reply.cacheReadTokens(), "priced at the cache-read price (issue 23)");
    assertEquals(100, reply.cacheWriteTokens());
  }

  @Test
  void unusedBlockTypes_areSkipped() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("\"content\":[",
        "\"content\":[{\"type\":\"thinking\",\"thinking\":\"hmm\",\"signature\":\"abc\"},")));

    assertEquals(List.of(ContentBlock.text("Hello! How can I help?")), provider().send(request().build()).content());
  }

  @Test
  void missingUsage_isEstimatedAndSaysSo() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replaceAll(",\\s*\"usage\":\\{[^}]*}", "")));

    ProviderReply reply = provider().send(request().build());

    assertTrue(reply.usageEstimated());
    assertEquals(2, reply.inputTokens()); // "hello": 5 chars -> 2 tokens
    assertEquals(6, reply.outputTokens()); // 22 chars -> 6 tokens
  }

  @Test
  void noModelInRequest_usesDefaultModel_andNoModelInReply_reportsIt() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("\"model\":\"claude-sonnet-4-5-20250929\",", "")));
    AnthropicProvider provider =
        new AnthropicProvider(settings(base(server), Secret.of(TEST_KEY), "claude-opus-4-1"));

    assertEquals("claude-opus-4-1", provider.send(request().build()).modelId());
    assertTrue(server.takeRequest().getBody().utf8().contains("\"model\":\"claude-opus-4-1\""));
  }

  @Test
  void endpoint_acceptsBaseWithOrWithoutVersion() {
    assertEquals("https://api.anthropic.com/v1/messages", endpoint("https://api.anthropic.com"));
    assertEquals("https://api.anthropic.com/v1/messages", endpoint("https://api.anthropic.com/"));
    assertEquals("https://proxy.local/anthropic/v1/messages", endpoint("https://proxy.local/anthropic"));
    assertEquals("https://proxy.local/anthropic/v1/messages", endpoint("https://proxy.local/anthropic/v1/"));
    assertEquals("https://proxy.local/v1/messages?team=a", endpoint("https://proxy.local/v1/messages?team=a"));
  }

  private static String endpoint(String base) {
    return AnthropicEndpoint.messages(URI.create(base)).toString();
  }
}
