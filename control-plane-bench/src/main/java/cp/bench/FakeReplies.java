package cp.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the fake provider answers, in the Messages API format: the classify step gets a valid
 * classification, the synthesize step a valid {@code {"response_text": ...}} (optionally after
 * one tool round), anything else plain text. The step is recognised from the prompt pack's
 * system prompt, as a real model would read it.
 */
final class FakeReplies {
  /** Marks the classify prompt pack (PRM-CLASSIFY-001). */
  static final String CLASSIFY_MARK = "## This step: classify";
  /** Marks the synthesize prompt pack (PRM-SYNTHESIZE-001). */
  static final String SYNTHESIZE_MARK = "## This step: write the reply";
  /** The tool a tool round asks for: cheap and available to every agent class that has tools. */
  static final String TOOL = "list_packages";
  /** A rough, provider-like token count: four characters a token. */
  static final int CHARS_PER_TOKEN = 4;
  static final String CLASSIFICATION =
      "{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"benchmark\",\"needs_tools\":false}";

  private final boolean toolRound;
  private final AtomicLong ids = new AtomicLong();

  FakeReplies(boolean toolRound) {
    this.toolRound = toolRound;
  }

  /** The response body for a request body. */
  ObjectNode reply(JsonNode request, int requestBytes) {
    String system = request.path("system").asText("");
    ObjectNode out = Json.object().put("id", "msg_bench_" + ids.incrementAndGet()).put("type", "message")
        .put("role", "assistant").put("model", request.path("model").asText("bench-model"));
    ArrayNode content = out.putArray("content");
    String text;
    if (system.contains(SYNTHESIZE_MARK) && toolRound && hasTool(request) && !afterToolResult(request)) {
      content.addObject().put("type", "tool_use").put("id", "toolu_bench_" + ids.get()).put("name", TOOL)
          .putObject("input");
      out.put("stop_reason", "tool_use");
      text = TOOL;
    } else {
      text = system.contains(CLASSIFY_MARK) ? CLASSIFICATION
          : system.contains(SYNTHESIZE_MARK) ? answer(request) : "A plain answer from the benchmark's fake provider.";
      content.addObject().put("type", "text").put("text", text);
      out.put("stop_reason", "end_turn");
    }
    out.putObject("usage").put("input_tokens", requestBytes / CHARS_PER_TOKEN)
        .put("output_tokens", text.length() / CHARS_PER_TOKEN + 1);
    return out;
  }

  /** A reply of a few sentences, like a short real answer. */
  private static String answer(JsonNode request) {
    String reply = "This is the benchmark's fake model answering. It read the work order, the classification and"
        + " the assembled context, and it replies with a short paragraph of plain text so that the quality gate,"
        + " the ledgers and the history see an answer of a realistic size. Request " + request.path("max_tokens")
        + " tokens at most.";
    return Json.write(Json.object().put("response_text", reply));
  }

  private static boolean hasTool(JsonNode request) {
    for (JsonNode t : request.path("tools")) {
      if (TOOL.equals(t.path("name").asText())) {
        return true;
      }
    }
    return false;
  }

  private static boolean afterToolResult(JsonNode request) {
    JsonNode messages = request.path("messages");
    JsonNode last = messages.path(messages.size() - 1).path("content");
    for (JsonNode block : last) {
      if ("tool_result".equals(block.path("type").asText())) {
        return true;
      }
    }
    return false;
  }
}
