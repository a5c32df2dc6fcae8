package cp.gateway.anthropic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.gateway.ProviderException;
import cp.gateway.StreamSink;
import cp.gateway.http.SseEvents;
import cp.gateway.http.StreamErrors;
import cp.model.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Messages API event stream read back into the response a one-shot call returns (issue 24):
 * {@code message_start} gives the id, model and input usage, each content block is built from its
 * {@code content_block_start} and deltas (text, and a tool_use's input from its JSON pieces),
 * {@code message_delta} gives the stop reason and output usage, {@code message_stop} ends it.
 * Text deltas go to the sink as they come. An {@code error} event fails the call as the same
 * error would in a one-shot reply; event types it does not know ({@code ping}, thinking deltas)
 * are skipped, as the one-shot reader skips block types it does not use.
 */
final class AnthropicStream implements SseEvents {
  private final StreamSink sink;
  private final StreamErrors errors;
  private ObjectNode message = Json.object();
  private final Map<Integer, ObjectNode> blocks = new TreeMap<>();
  private final Map<Integer, StringBuilder> texts = new TreeMap<>();
  private final Map<Integer, StringBuilder> inputs = new TreeMap<>();
  private boolean complete;

  AnthropicStream(StreamSink sink, StreamErrors errors) {
    this.sink = sink;
    this.errors = errors;
  }

  @Override
  public void event(String type, String data) throws ProviderException {
    JsonNode e = parse(data);
    String kind = type != null ? type : Json.text(e, "type", "");
    switch (kind) {
      case "message_start" -> {
        if (e.path("message").isObject()) {
          message = (ObjectNode) e.get("message").deepCopy();
        }
      }
      case "content_block_start" -> blocks.put(e.path("index").asInt(), e.path("content_block").isObject()
          ? ((ObjectNode) e.get("content_block")).deepCopy() : Json.object());
      case "content_block_delta" -> delta(e.path("index").asInt(), e.path("delta"));
      case "message_delta" -> {
        JsonNode d = e.path("delta");
        if (d.has("stop_reason")) {
          message.set("stop_reason", d.get("stop_reason"));
        }
        if (e.path("usage").isObject()) {
          ObjectNode usage = message.path("usage").isObject() ? (ObjectNode) message.get("usage") : Json.object();
          for (Iterator<Map.Entry<String, JsonNode>> it = e.get("usage").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isNull()) {
              usage.set(f.getKey(), f.getValue());
            }
          }
          message.set("usage", usage);
        }
      }
      case "message_stop" -> complete = true;
      case "error" -> throw errors.error(status(e.path("error").path("type").asText("")), data);
      default -> { } // ping, content_block_stop, and events this reader does not use
    }
  }

  private void delta(int index, JsonNode delta) {
    switch (Json.text(delta, "type", "")) {
      case "text_delta" -> {
        String text = Json.text(delta, "text", "");
        texts.computeIfAbsent(index, i -> new StringBuilder()).append(text);
        if (!text.isEmpty()) {
          sink.text(text);
        }
      }
      case "input_json_delta" -> inputs.computeIfAbsent(index, i -> new StringBuilder())
          .append(Json.text(delta, "partial_json", ""));
      default -> { } // thinking and signature deltas: not kept, as the one-shot reader keeps no thinking
    }
  }

  @Override
  public boolean complete() {
    return complete;
  }

  @Override
  public String assembledBody() {
    ArrayNode content = Json.MAPPER.createArrayNode();
    List<Integer> order = new ArrayList<>(blocks.keySet());
    for (int index : order) {
      ObjectNode block = blocks.get(index);
      String type = Json.text(block, "type", "");
      if (type.equals("text")) {
        StringBuilder t = texts.get(index);
        block.put("text", Json.text(block, "text", "") + (t == null ? "" : t));
      } else if (type.equals("tool_use") && inputs.containsKey(index)) {
        String json = inputs.get(index).toString();
        block.set("input", json.isBlank() ? Json.object() : inputOf(json));
      }
      content.add(block);
    }
    message.set("content", content);
    return message.toString();
  }

  /** A tool_use input as the model wrote it; text that is not JSON stays text, for the reply reader to refuse. */
  private static JsonNode inputOf(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      return Json.MAPPER.getNodeFactory().textNode(json);
    }
  }

  private JsonNode parse(String data) throws ProviderException {
    try {
      return Json.MAPPER.readTree(data);
    } catch (JsonProcessingException e) {
      throw errors.invalid("an event of the stream is not JSON (" + e.getOriginalMessage() + ")");
    }
  }

  /** The HTTP status the same error has in a one-shot reply, so both map to the same failure. */
  static int status(String errorType) {
    return switch (errorType) {
      case "invalid_request_error" -> 400;
      case "authentication_error" -> 401;
      case "permission_error" -> 403;
      case "not_found_error" -> 404;
      case "rate_limit_error" -> 429;
      case "overloaded_error" -> 529;
      default -> 500;
    };
  }
}
