package cp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * The Anthropic Messages API for one turn of the ADMIN agent on {@link #QUESTION}: classify answers
 * with a classification; synthesize asks for list_packages in round 1 and answers in round 2.
 * Requests are counted by step (from the system prompt) and round (from the messages: round n has
 * n-1 assistant turns, and its last message is the user text or a tool result).
 *
 * <p>With {@link #holdingRound2()}, the first round-2 request is held until {@link #release()}, so
 * a worker can be killed while its LLM call is in flight.
 */
final class AnthropicTurnMock extends Dispatcher {
  static final String QUESTION = "what packages are installed?";
  static final String ANSWER = "The installed packages are listed by the list_packages tool.";
  static final String API_KEY = "test-key";
  /** What a turn of this script asks, when nothing had to be asked again. */
  static final Map<String, Integer> ONE_TURN = Map.of("classify/round-1", 1, "synthesize/round-1", 1,
      "synthesize/round-2", 1);
  /** How long a held request waits for {@link #release()} at most. */
  static final long HOLD_SECONDS = CpctlProcesses.STEP_TIMEOUT.toSeconds();

  final CountDownLatch round2Held = new CountDownLatch(1);
  /** Tokens every reply reports ({@code usage}: 120 in, 30 out), what each request is billed. */
  static final long TOKENS_PER_REPLY = 150;
  final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch released = new CountDownLatch(1);
  private final AtomicBoolean holding;
  private final Map<String, Integer> counts = new ConcurrentHashMap<>();

  private AnthropicTurnMock(boolean hold) {
    this.holding = new AtomicBoolean(!hold);
  }

  /** Answers every request at once. */
  static AnthropicTurnMock answering() {
    return new AnthropicTurnMock(false);
  }

  /** Holds the first synthesize round-2 request until {@link #release()}. */
  static AnthropicTurnMock holdingRound2() {
    return new AnthropicTurnMock(true);
  }

  Map<String, Integer> counts() {
    return Map.copyOf(counts);
  }

  void release() {
    released.countDown();
  }

  String describe() {
    return "model requests: " + counts() + ", problems: " + problems;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
    JsonNode body;
    try {
      body = Json.parse(request.getBody() == null ? "" : request.getBody().utf8());
    } catch (RuntimeException e) {
      problems.add("unparseable request: " + e.getMessage());
      return error(400, "request body is not JSON");
    }
    if (!API_KEY.equals(request.getHeaders().get("x-api-key"))) {
      problems.add("request without the test key");
      return error(401, "invalid x-api-key");
    }
    String system = body.path("system").asText("");
    String step = system.contains("## This step: classify") ? "classify"
        : system.contains("## This step: write the reply") ? "synthesize" : "unknown";
    JsonNode messages = body.path("messages");
    int round = 1;
    for (JsonNode m : messages) {
      if ("assistant".equals(m.path("role").asText())) {
        round++;
      }
    }
    JsonNode last = messages.path(messages.size() - 1);
    String lastKind = last.path("content").path(0).path("type").asText();
    if (!QUESTION.equals(userInput(messages.path(0)))) {
      problems.add(step + " round " + round + ": <input> does not carry the question");
    }
    counts.merge(step + "/round-" + round, 1, Integer::sum);

    if (step.equals("classify") && round == 1) {
      return message(text("{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"list_installed_packages\","
          + "\"needs_tools\":true}"), "end_turn");
    }
    if (step.equals("synthesize") && round == 1 && lastKind.equals("text")) {
      return message("{\"type\":\"tool_use\",\"id\":\"toolu_mock_01\",\"name\":\"list_packages\",\"input\":{}}",
          "tool_use");
    }
    if (step.equals("synthesize") && round == 2 && lastKind.equals("tool_result")) {
      if (holding.compareAndSet(false, true)) {
        round2Held.countDown();
        released.await(HOLD_SECONDS, TimeUnit.SECONDS);
      }
      return message(text(Json.object().put("response_text", ANSWER).toString()), "end_turn");
    }
    problems.add("unexpected request: " + step + " round " + round + " ending in " + lastKind);
    return error(400, "unexpected request");
  }

  private static String userInput(JsonNode firstMessage) {
    String text = firstMessage.path("content").path(0).path("text").asText("");
    int open = text.indexOf("<input>");
    int close = text.lastIndexOf("</input>");
    if (open < 0 || close < open) {
      return null;
    }
    return Json.parse(text.substring(open + "<input>".length(), close)).path("user_input").asText(null);
  }

  private static String text(String s) {
    return Json.object().put("type", "text").put("text", s).toString();
  }

  private static MockResponse message(String block, String stopReason) {
    return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
        .body("{\"id\":\"msg_mock\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-mock\","
            + "\"content\":[" + block + "],\"stop_reason\":\"" + stopReason + "\","
            + "\"usage\":{\"input_tokens\":120,\"output_tokens\":30}}")
        .build();
  }

  private static MockResponse error(int code, String message) {
    return new MockResponse.Builder().code(code).setHeader("content-type", "application/json")
        .body("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + message + "\"}}")
        .build();
  }
}
