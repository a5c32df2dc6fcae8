package cp.e2e;

import cp.model.Json;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A local OpenAI-compatible model ({@code llama3:8b}) for a {@link mockwebserver3.MockWebServer}:
 * classify and synthesize answers that pass their contracts, each billing 50 prompt and 10
 * completion tokens.
 */
public final class LocalOpenAiModel extends Dispatcher {
  @Override
  public MockResponse dispatch(RecordedRequest r) {
    String content = r.getBody().utf8().contains("write the reply to the user") ? "{\"response_text\":\"Sunny.\"}"
        : "{\"speech_act\":\"question\",\"ambiguity\":\"low\"}";
    var reply = Json.object().put("id", "chatcmpl-1").put("model", "llama3:8b");
    reply.putArray("choices").add(Json.object().put("index", 0).put("finish_reason", "stop")
        .set("message", Json.object().put("role", "assistant").put("content", content)));
    reply.set("usage", Json.object().put("prompt_tokens", 50).put("completion_tokens", 10));
    return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
        .body(reply.toString()).build();
  }
}
