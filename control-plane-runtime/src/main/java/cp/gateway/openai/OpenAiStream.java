package cp.gateway.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.gateway.ProviderException;
import cp.gateway.StreamSink;
import cp.gateway.http.SseEvents;
import cp.gateway.http.StreamErrors;
import cp.model.Json;
import java.util.Map;
import java.util.TreeMap;

/**
 * A chat completion's chunk stream read back into the completion a one-shot call returns (issue
 * 24): the first choice's content deltas make its text (handed to the sink as they come), tool
 * call deltas are joined by their index (id and name from the first, the arguments' pieces in
 * order), the last finish_reason and the usage chunk (asked for with
 * {@code stream_options.include_usage}) close it. {@code data: [DONE]} is the last event; a server
 * that ends the stream after a finish_reason without it has still said everything. A chunk with
 * an {@code error} fails the call as a one-shot error reply would.
 */
final class OpenAiStream implements SseEvents {
  static final String DONE = "[DONE]";

  private final StreamSink sink;
  private final StreamErrors errors;
  private String id;
  private String model;
  private final StringBuilder content = new StringBuilder();
  private final Map<Integer, ObjectNode> toolCalls = new TreeMap<>();
  private final Map<Integer, StringBuilder> arguments = new TreeMap<>();
  private JsonNode finishReason;
  private JsonNode usage;
  private boolean done;

  OpenAiStream(StreamSink sink, StreamErrors errors) {
    this.sink = sink;
    this.errors = errors;
  }

  @Override
  public void event(String type, String data) throws ProviderException {
    if (DONE.equals(data.trim())) {
      done = true;
      return;
    }
    JsonNode chunk;
    try {
      chunk = Json.MAPPER.readTree(data);
    } catch (JsonProcessingException e) {
      throw errors.invalid("a chunk of the stream is not JSON (" + e.getOriginalMessage() + ")");
    }
    if (chunk == null || !chunk.isObject()) {
      throw errors.invalid("a chunk of the stream is not a JSON object");
    }
    if (chunk.has("error")) {
      JsonNode code = chunk.path("error").path("code");
      throw errors.error(code.isInt() && code.asInt() >= 400 ? code.asInt() : 500, data);
    }
    id = id == null ? textOf(chunk, "id") : id;
    model = model == null ? textOf(chunk, "model") : model;
    if (chunk.path("usage").isObject()) {
      usage = chunk.get("usage");
    }
    JsonNode choice = chunk.path("choices").path(0);
    if (!choice.isObject()) {
      return;
    }
    JsonNode delta = choice.path("delta");
    JsonNode text = delta.path("content");
    if (text.isTextual() && !text.asText().isEmpty()) {
      content.append(text.asText());
      sink.text(text.asText());
    }
    for (JsonNode call : delta.path("tool_calls")) {
      int index = call.path("index").asInt(toolCalls.size());
      ObjectNode c = toolCalls.computeIfAbsent(index, i -> Json.object().put("type", "function"));
      if (call.path("id").isTextual()) {
        c.put("id", call.get("id").asText());
      }
      JsonNode fn = call.path("function");
      if (fn.path("name").isTextual() && !fn.get("name").asText().isEmpty()) {
        c.put("name", fn.get("name").asText());
      }
      if (fn.path("arguments").isTextual()) {
        arguments.computeIfAbsent(index, i -> new StringBuilder()).append(fn.get("arguments").asText());
      }
    }
    if (choice.hasNonNull("finish_reason")) {
      finishReason = choice.get("finish_reason");
    }
  }

  @Override
  public boolean complete() {
    return done || finishReason != null;
  }

  @Override
  public String assembledBody() {
    ObjectNode message = Json.object().put("role", "assistant");
    message.put("content", content.toString());
    if (!toolCalls.isEmpty()) {
      ArrayNode calls = message.putArray("tool_calls");
      toolCalls.forEach((index, c) -> {
        ObjectNode call = calls.addObject();
        if (c.has("id")) {
          call.put("id", c.get("id").asText());
        }
        call.put("type", "function");
        ObjectNode fn = call.putObject("function");
        if (c.has("name")) {
          fn.put("name", c.get("name").asText());
        }
        StringBuilder args = arguments.get(index);
        fn.put("arguments", args == null ? "" : args.toString());
      });
    }
    ObjectNode body = Json.object();
    if (id != null) {
      body.put("id", id);
    }
    if (model != null) {
      body.put("model", model);
    }
    ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
    choice.set("message", message);
    choice.set("finish_reason", finishReason);
    if (usage != null) {
      body.set("usage", usage);
    }
    return body.toString();
  }

  /** A non-blank text member, or null. */
  private static String textOf(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && v.isTextual() && !v.asText().isBlank() ? v.asText() : null;
  }
}
