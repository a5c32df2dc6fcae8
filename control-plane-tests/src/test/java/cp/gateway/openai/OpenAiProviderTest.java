package cp.gateway.openai;

import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.assertJson;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.json;
import static cp.gateway.ProviderFixtures.listPackagesTool;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

/** Successful chat-completion round trips: the exact request sent and the reply mapped back. */
class OpenAiProviderTest {
  @StartStop final MockWebServer server = new MockWebServer();

  private static final String TEXT_REPLY = """
      {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion","created":1741569952,
       "model":"gpt-4o-mini-2024-07-18",
       "choices":[{"index":0,"message":{"role":"assistant","content":"Hello! How can I help?","refusal":null,
                   "annotations":[]},"logprobs":null,"finish_reason":"stop"}],
       "usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,
                "prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0}},
       "service_tier":"default","system_fingerprint":"fp_06737a9306"}""";

  private static final String TOOL_CALL_REPLY = """
      {"id":"chatcmpl-abc123","object":"chat.completion","created":1699896916,"model":"gpt-4o-mini-2024-07-18",
       "choices":[{"index":0,"message":{"role":"assistant","content":null,
         "tool_calls":[{"id":"call_abc123","type":"function",
                        "function":{"name":"list_packages","arguments":"{\\"prefix\\":\\"cp-\\"}"}}]},
         "logprobs":null,"finish_reason":"tool_calls"}],
       "usage":{"prompt_tokens":82,"completion_tokens":17,"total_tokens":99}}""";

  private OpenAiProvider provider(Secret key) {
    return new OpenAiProvider(settings(base(server), key, ProviderSettings.DEFAULT_OPENAI_MODEL));
  }

  @Test
  void textReply_mapsContentUsageModelAndStop_andSendsBearerKey() throws Exception {
    server.enqueue(json(200, TEXT_REPLY));

    ProviderReply reply = provider(Secret.of(TEST_KEY)).send(request().system("Be brief.").build());

    assertEquals(List.of(ContentBlock.text("Hello! How can I help?")), reply.content());
    assertEquals(19, reply.inputTokens());
    assertEquals(10, reply.outputTokens());
    assertEquals("gpt-4o-mini-2024-07-18", reply.modelId());
    assertEquals(ProviderReply.STOP, reply.finishReason());
    assertFalse(reply.usageEstimated());

    RecordedRequest sent = server.takeRequest();
    assertEquals("POST", sent.getMethod());
    assertEquals("/v1/chat/completions", sent.getUrl().encodedPath());
    assertEquals("Bearer " + TEST_KEY, sent.getHeaders().get("authorization"));
    assertEquals("application/json", sent.getHeaders().get("content-type"));
    assertJson("""
        {"model":"gpt-4o-mini","max_tokens":256,"temperature":0.0,
         "messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hello"}]}""",
        sent.getBody().utf8());
    assertEquals(1, server.getRequestCount());
  }

  @Test
  void noKey_sendsNoAuthorizationHeader() throws Exception {
    server.enqueue(json(200, TEXT_REPLY));

    provider(Secret.NONE).send(request().build());

    assertNull(server.takeRequest().getHeaders().get("authorization"));
  }

  @Test
  void toolCallThenToolResult_sendsToolCallsAndToolMessages() throws Exception {
    server.enqueue(json(200, TOOL_CALL_REPLY));
    server.enqueue(json(200, TEXT_REPLY));
    OpenAiProvider provider = provider(Secret.of(TEST_KEY));
    PromptRequest first = request()
        .system("You manage packages.")
        .model("llama3.1:8b")
        .temperature(0.2)
        .messages(List.of(Message.user("What packages are installed?")))
        .tools(List.of(listPackagesTool()))
        .build();

    ProviderReply toolTurn = provider.send(first);

    assertEquals(ProviderReply.TOOL_USE, toolTurn.finishReason());
    assertEquals(List.of(ContentBlock.toolUse("call_abc123", "list_packages", Json.parse("{\"prefix\":\"cp-\"}"))),
        toolTurn.content());

    PromptRequest second = first.toBuilder()
        .messages(List.of(
            Message.user("What packages are installed?"),
            new Message(Message.ASSISTANT, toolTurn.content()),
            new Message(Message.USER, List.of(
                ContentBlock.toolResult("call_abc123", "cp-core 1.0", false),
                ContentBlock.toolResult("call_def456", "permission denied", true),
                ContentBlock.text("Summarise, please.")))))
        .build();
    assertEquals(ProviderReply.STOP, provider.send(second).finishReason());

    server.takeRequest();
    assertJson("""
        {"model":"llama3.1:8b","max_tokens":256,"temperature":0.2,
         "messages":[
           {"role":"system","content":"You manage packages."},
           {"role":"user","content":"What packages are installed?"},
           {"role":"assistant","tool_calls":[{"id":"call_abc123","type":"function",
             "function":{"name":"list_packages","arguments":"{\\"prefix\\":\\"cp-\\"}"}}]},
           {"role":"tool","tool_call_id":"call_abc123","content":"cp-core 1.0"},
           {"role":"tool","tool_call_id":"call_def456","content":"Error: permission denied"},
           {"role":"user","content":"Summarise, please."}],
         "tools":[{"type":"function","function":{"name":"list_packages","description":"List installed packages",
                   "parameters":{"type":"object","properties":{"prefix":{"type":"string"}}}}}]}""",
        server.takeRequest().getBody().utf8());
    assertEquals(2, server.getRequestCount());
  }

  @Test
  void unparseableArguments_areKeptRaw() throws Exception {
    server.enqueue(json(200, TOOL_CALL_REPLY.replace("{\\\"prefix\\\":\\\"cp-\\\"}", "{prefix: cp-")));

    ContentBlock call = provider(Secret.NONE).send(request().build()).content().get(0);

    assertEquals(Json.parse("{\"_raw\":\"{prefix: cp-\"}"), call.input());
  }

  @Test
  void ollamaStyle_stopWithToolCalls_noIds_objectArguments_isToolUse() throws Exception {
    server.enqueue(json(200, """
        {"model":"llama3.1:8b","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",
         "content":"","tool_calls":[{"function":{"name":"list_packages","arguments":{"prefix":"cp-"}}}]}}],
         "usage":{"prompt_tokens":5,"completion_tokens":3}}"""));

    ProviderReply reply = provider(Secret.NONE).send(request().build());

    assertEquals(ProviderReply.TOOL_USE, reply.finishReason());
    assertEquals(List.of(ContentBlock.toolUse("call_0", "list_packages", Json.parse("{\"prefix\":\"cp-\"}"))),
        reply.content());
  }

  @Test
  void cachedPromptTokens_areReadFromTheUsageDetails_asPartOfThePromptTokens() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("\"cached_tokens\":0", "\"cached_tokens\":12")));

    ProviderReply reply = provider(Secret.of(TEST_KEY)).send(request().build());
    assertEquals(19, reply.inputTokens());
    assertEquals(12, reply.cacheReadTokens());
    assertEquals(0, reply.cacheWriteTokens());
  }

  @Test
  void lengthFinish_isLength() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("\"finish_reason\":\"stop\"", "\"finish_reason\":\"length\"")));

    assertEquals(ProviderReply.LENGTH, provider(Secret.NONE).send(request().build()).finishReason());
  }

  @Test
  void missingUsage_isEstimatedAndSaysSo() throws Exception {
    server.enqueue(json(200, """
        {"model":"local","choices":[{"index":0,"finish_reason":"stop",
          "message":{"role":"assistant","content":"Hello! How can I help?"}}]}"""));

    ProviderReply reply = provider(Secret.NONE).send(request().build());

    assertTrue(reply.usageEstimated());
    assertEquals(2, reply.inputTokens()); // "hello": 5 chars -> 2 tokens
    assertEquals(6, reply.outputTokens()); // 22 chars -> 6 tokens
  }

  @Test
  void contentAsTextParts_isJoined() throws Exception {
    server.enqueue(json(200, TEXT_REPLY.replace("\"content\":\"Hello! How can I help?\"",
        "\"content\":[{\"type\":\"text\",\"text\":\"Hello! \"},{\"type\":\"text\",\"text\":\"Hi.\"}]")));

    assertEquals("Hello! Hi.", provider(Secret.NONE).send(request().build()).content().get(0).text());
  }

  @Test
  void endpoint_followsTheDocumentedBaseUrlRule() {
    assertEquals("https://api.openai.com/v1/chat/completions", endpoint("https://api.openai.com/v1"));
    assertEquals("https://api.openai.com/v1/chat/completions", endpoint("https://api.openai.com/v1/"));
    assertEquals("http://localhost:11434/v1/chat/completions", endpoint("http://localhost:11434"));
    assertEquals("http://localhost:11434/v1/chat/completions", endpoint("http://localhost:11434/v1"));
    assertEquals("http://localhost:8000/v1/chat/completions", endpoint("http://localhost:8000/"));
    assertEquals("https://openrouter.ai/api/v1/chat/completions", endpoint("https://openrouter.ai/api/v1"));
    assertEquals("http://gw.local/chat/completions?api-version=2", endpoint("http://gw.local/chat/completions?api-version=2"));
  }

  private static String endpoint(String base) {
    return OpenAiEndpoint.chatCompletions(URI.create(base)).toString();
  }
}
