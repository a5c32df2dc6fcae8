package cp.gateway.stream;

import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.assertJson;
import static cp.gateway.ProviderFixtures.base;
import static cp.gateway.ProviderFixtures.failsWith;
import static cp.gateway.ProviderFixtures.json;
import static cp.gateway.ProviderFixtures.listPackagesTool;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static cp.gateway.stream.SseBody.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderFixtures;
import cp.gateway.ProviderReply;
import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import cp.gateway.anthropic.AnthropicProvider;
import cp.gateway.openai.OpenAiProvider;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * Issue 24 item 1: a streamed call returns exactly what the one-shot call of the same reply
 * returns (content, usage, model, finish reason, response id), hands the text over in order as
 * it comes, asks the API to stream, and fails as a one-shot call would when the stream reports
 * an error, breaks off, or stalls.
 */
class StreamingProviderTest {
  @StartStop final MockWebServer server = new MockWebServer();

  static final String ANTHROPIC_ONE_SHOT = """
      {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
       "content":[{"type":"text","text":"Let me check."},
                  {"type":"tool_use","id":"toolu_01","name":"list_packages","input":{"prefix":"cp-"}}],
       "stop_reason":"tool_use","stop_sequence":null,
       "usage":{"input_tokens":380,"output_tokens":62,"cache_creation_input_tokens":5,"cache_read_input_tokens":7}}""";

  static final List<String> ANTHROPIC_EVENTS = List.of(
      event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\","
          + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],\"stop_reason\":null,"
          + "\"usage\":{\"input_tokens\":380,\"output_tokens\":1,\"cache_creation_input_tokens\":5,"
          + "\"cache_read_input_tokens\":7}}}"),
      event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
          + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"),
      event("ping", "{\"type\":\"ping\"}"),
      event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
          + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me\"}}"),
      event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
          + "\"delta\":{\"type\":\"text_delta\",\"text\":\" check.\"}}"),
      event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"),
      event("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,"
          + "\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"list_packages\",\"input\":{}}}"),
      event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,"
          + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"prefix\\\": \"}}"),
      event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,"
          + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"cp-\\\"}\"}}"),
      event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}"),
      event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\","
          + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":62}}"),
      event("message_stop", "{\"type\":\"message_stop\"}"));

  static final String OPENAI_ONE_SHOT = """
      {"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-mini-2024-07-18",
       "choices":[{"index":0,"message":{"role":"assistant","content":"Let me check.",
         "tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_packages",
           "arguments":"{\\"prefix\\": \\"cp-\\"}"}}]},"finish_reason":"tool_calls"}],
       "usage":{"prompt_tokens":80,"completion_tokens":20,"total_tokens":100}}""";

  static final List<String> OPENAI_EVENTS = List.of(
      event(null, "{\"id\":\"chatcmpl-1\",\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,"
          + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,"
          + "\"delta\":{\"content\":\"Let me\"},\"finish_reason\":null}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,"
          + "\"delta\":{\"content\":\" check.\"},\"finish_reason\":null}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          + "\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"list_packages\",\"arguments\":\"\"}}]},"
          + "\"finish_reason\":null}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          + "\"function\":{\"arguments\":\"{\\\"prefix\\\": \"}}]},\"finish_reason\":null}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          + "\"function\":{\"arguments\":\"\\\"cp-\\\"}\"}}]},\"finish_reason\":null}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{},"
          + "\"finish_reason\":\"tool_calls\"}],\"usage\":null}"),
      event(null, "{\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":80,\"completion_tokens\":20,"
          + "\"total_tokens\":100}}"),
      event(null, "[DONE]"));

  private AnthropicProvider anthropic(Duration read) {
    return new AnthropicProvider(settings(base(server), Secret.of(TEST_KEY), ProviderSettings.DEFAULT_ANTHROPIC_MODEL)
        .withTimeouts(ProviderFixtures.TEST_CONNECT_TIMEOUT, read));
  }

  private OpenAiProvider openAi() {
    return new OpenAiProvider(settings(base(server), Secret.of(TEST_KEY), ProviderSettings.DEFAULT_OPENAI_MODEL));
  }

  private static PromptRequest toolRequest() {
    return request().messages(List.of(Message.user("What packages?"))).tools(List.of(listPackagesTool())).build();
  }

  @Test
  void anthropic_streamedReplyEqualsTheOneShotReply_andTextArrivesInOrder() throws Exception {
    server.enqueue(json(200, ANTHROPIC_ONE_SHOT));
    server.enqueue(SseBody.of(ANTHROPIC_EVENTS, 0).response());
    AnthropicProvider provider = anthropic(ProviderFixtures.TEST_READ_TIMEOUT);

    ProviderReply oneShot = provider.send(toolRequest());
    List<String> deltas = new ArrayList<>();
    ProviderReply streamed = provider.stream(toolRequest(), deltas::add);

    assertEquals(oneShot, streamed);
    assertEquals(392, streamed.inputTokens(), "input counts the cache's tokens, as one-shot does");
    assertEquals(List.of("Let me", " check."), deltas);
    server.takeRequest();
    var sent = Json.parse(server.takeRequest().getBody().utf8());
    assertTrue(sent.path("stream").asBoolean(), sent.toString());
  }

  @Test
  void openAi_streamedReplyEqualsTheOneShotReply_andAsksForUsage() throws Exception {
    server.enqueue(json(200, OPENAI_ONE_SHOT));
    server.enqueue(SseBody.of(OPENAI_EVENTS, 0).response());
    OpenAiProvider provider = openAi();

    ProviderReply oneShot = provider.send(toolRequest());
    List<String> deltas = new ArrayList<>();
    ProviderReply streamed = provider.stream(toolRequest(), deltas::add);

    assertEquals(oneShot, streamed);
    assertEquals(List.of("Let me", " check."), deltas);
    assertEquals(ProviderReply.TOOL_USE, streamed.finishReason());
    server.takeRequest();
    var sent = Json.parse(server.takeRequest().getBody().utf8());
    assertTrue(sent.path("stream").asBoolean());
    assertJson("{\"include_usage\":true}", sent.path("stream_options").toString());
  }

  @Test
  void aServerThatCannotStream_answersOneShot_andTheTextComesInOnePiece() throws Exception {
    server.enqueue(json(200, ANTHROPIC_ONE_SHOT));
    List<String> deltas = new ArrayList<>();

    ProviderReply reply = anthropic(ProviderFixtures.TEST_READ_TIMEOUT).stream(toolRequest(), deltas::add);

    assertEquals(List.of("Let me check."), deltas);
    assertEquals(ContentBlock.TOOL_USE, reply.content().get(1).type());
  }

  @Test
  void aServerRefusingTheStreamingRequest_isAskedOnceMoreOneShot() throws Exception {
    server.enqueue(json(400, "{\"error\":{\"message\":\"Unrecognized request argument: stream_options\","
        + "\"type\":\"invalid_request_error\"}}"));
    server.enqueue(json(200, OPENAI_ONE_SHOT));
    List<String> deltas = new ArrayList<>();

    ProviderReply reply = openAi().stream(toolRequest(), deltas::add);

    assertEquals(List.of("Let me check."), deltas);
    assertEquals(ProviderReply.TOOL_USE, reply.finishReason());
    assertTrue(Json.parse(server.takeRequest().getBody().utf8()).path("stream").asBoolean());
    assertTrue(Json.parse(server.takeRequest().getBody().utf8()).path("stream").isMissingNode(), "one-shot");
  }

  @Test
  void aBadRequestNotAboutStreaming_failsAsOneShot_withoutASecondRequest() {
    server.enqueue(json(400, "{\"error\":{\"message\":\"max_tokens: must be at most 8192\","
        + "\"type\":\"invalid_request_error\"}}"));
    server.enqueue(json(200, OPENAI_ONE_SHOT));

    ProviderException e = failsWith(ProviderErrorKind.BAD_REQUEST, () -> openAi().stream(toolRequest(), d -> { }));

    assertTrue(e.getMessage().contains("max_tokens"), e.getMessage());
    assertEquals(1, server.getRequestCount(), "a request error is not sent again");
  }

  @Test
  void anErrorEventMidStream_failsAsTheSameOneShotErrorWould() {
    List<String> events = new ArrayList<>(ANTHROPIC_EVENTS.subList(0, 4));
    events.add(event("error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
    server.enqueue(SseBody.of(events, 0).response());

    ProviderException e = failsWith(ProviderErrorKind.OVERLOADED,
        () -> anthropic(ProviderFixtures.TEST_READ_TIMEOUT).stream(toolRequest(), d -> { }));

    assertTrue(e.getMessage().contains("Overloaded"), e.getMessage());
  }

  @Test
  void aStreamCutBeforeItsLastEvent_failsAsARetryableConnectionFailure() {
    server.enqueue(SseBody.cutAfter(ANTHROPIC_EVENTS, 5).response());
    List<String> deltas = new ArrayList<>();

    ProviderException e = failsWith(ProviderErrorKind.CONNECTION,
        () -> anthropic(ProviderFixtures.TEST_READ_TIMEOUT).stream(toolRequest(), deltas::add));

    assertEquals(List.of("Let me", " check."), deltas, "what came before the cut was handed over");
    assertTrue(e.getMessage().contains("without its last one"), e.getMessage());
  }

  @Test
  void aStalledStream_failsLikeAHungCall_afterTheReadTimeoutBetweenEvents() {
    server.enqueue(SseBody.stallAfter(ANTHROPIC_EVENTS, 4, 3_000).response());

    ProviderException e = failsWith(ProviderErrorKind.TIMEOUT,
        () -> anthropic(ProviderFixtures.SHORT_READ_TIMEOUT).stream(toolRequest(), d -> { }));

    assertTrue(e.getMessage().contains("read timeout 300 ms"), e.getMessage());
  }

  @Test
  void anErrorStatus_failsAsOneShot() {
    server.enqueue(json(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}"));

    failsWith(ProviderErrorKind.RATE_LIMITED, () -> anthropic(ProviderFixtures.TEST_READ_TIMEOUT)
        .stream(toolRequest(), d -> { }));
  }

  @Test
  void theOfflineProviderStreamsItsReplyInPieces_thatMakeTheOneShotText() throws Exception {
    LlmProvider offline = new OfflineProvider();
    PromptRequest r = request().contractId("PRC-DEGRADED-001")
        .messages(List.of(Message.user("Tell me something about durable workflows and how they recover"))).build();
    List<String> deltas = new ArrayList<>();

    ProviderReply streamed = offline.stream(r, deltas::add);

    assertEquals(offline.send(r), streamed);
    assertTrue(deltas.size() > 1, "more than one piece: " + deltas);
    assertEquals(ContentBlock.joinText(streamed.content()), String.join("", deltas));
  }
}
