package cp.gateway.stream;

import static cp.gateway.stream.SseBody.event;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * The Anthropic Messages API for live-turn tests: a request that asks to stream (synthesize) is
 * answered by a slow server-sent event stream whose JSON answer's {@code response_text} is
 * {@link #reply()}, one word a delta, {@code pauseMillis} apart; any other (classify) by a plain
 * question's classification. Keeps every stream it served, for their timings.
 */
public final class SlowAnthropic extends Dispatcher {
  public final List<SseBody> streams = Collections.synchronizedList(new ArrayList<>());
  private final int words;
  private final long pauseMillis;

  public SlowAnthropic(int words, long pauseMillis) {
    this.words = words;
    this.pauseMillis = pauseMillis;
  }

  /** The reply text the stream writes. */
  public String reply() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append("word").append(i).append(' ');
    }
    return sb.append("end.").toString();
  }

  /** Events in all: message_start, block start, the JSON's opening, the words, its end, block stop, delta, stop. */
  public int events() {
    return words + 7;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    JsonNode body = Json.parse(request.getBody().utf8());
    if (body.path("stream").asBoolean()) {
      SseBody s = stream();
      streams.add(s);
      return s.response();
    }
    String classification = "{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"explain\","
        + "\"needs_tools\":false}";
    return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
        .body("{\"id\":\"msg_c\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-live\","
            + "\"content\":[" + Json.object().put("type", "text").put("text", classification) + "],"
            + "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":40,\"output_tokens\":20}}").build();
  }

  private SseBody stream() {
    List<String> events = new ArrayList<>();
    events.add(event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_live\",\"type\":\"message\","
        + "\"role\":\"assistant\",\"model\":\"claude-live\",\"content\":[],\"usage\":{\"input_tokens\":50,"
        + "\"output_tokens\":1}}}"));
    events.add(event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
        + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"));
    events.add(delta("{\\\"response_text\\\": \\\""));
    for (int i = 0; i < words; i++) {
      events.add(delta("word" + i + " "));
    }
    events.add(delta("end.\\\"}"));
    events.add(event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"));
    events.add(event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
        + "\"usage\":{\"output_tokens\":60}}"));
    events.add(event("message_stop", "{\"type\":\"message_stop\"}"));
    return SseBody.of(events, pauseMillis);
  }

  private static String delta(String escaped) {
    return event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
        + "\"delta\":{\"type\":\"text_delta\",\"text\":\"" + escaped + "\"}}");
  }
}
