package cp.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A fake Anthropic Messages API for one-step turns ("hello"): classify, synthesize and the
 * degraded call each get a contract-valid answer, unless a fault is queued for that step or the
 * provider is down. Every request is recorded with its step and arrival time.
 */
final class FaultyAnthropic extends Dispatcher {
  static final String CLASSIFY = "classify";
  static final String SYNTHESIZE = "synthesize";
  static final String DEGRADED = "degraded";
  static final String ANSWER = "Hello from the fake model.";
  static final String DEGRADED_ANSWER = "Hello from the degraded path.";

  /** One request as the server saw it. */
  record Seen(String step, long atNanos) {}

  final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private final Deque<Supplier<MockResponse>> classifyFaults = new ArrayDeque<>();
  private final Deque<Supplier<MockResponse>> synthesizeFaults = new ArrayDeque<>();
  private volatile Supplier<MockResponse> down;
  private volatile Runnable onEachRequest = () -> { };

  /** Forgets everything queued and seen. */
  synchronized void reset() {
    classifyFaults.clear();
    synthesizeFaults.clear();
    down = null;
    onEachRequest = () -> { };
    seen.clear();
  }

  /** The next classify requests get these answers, in order; later ones succeed. */
  synchronized FaultyAnthropic failClassify(List<Supplier<MockResponse>> faults) {
    classifyFaults.addAll(faults);
    return this;
  }

  /** The next synthesize requests get these answers, in order; later ones succeed. */
  synchronized FaultyAnthropic failSynthesize(List<Supplier<MockResponse>> faults) {
    synthesizeFaults.addAll(faults);
    return this;
  }

  /** Every request, of every step, gets this answer. */
  FaultyAnthropic down(Supplier<MockResponse> answer) {
    this.down = answer;
    return this;
  }

  /** Runs inside every request before it is answered (e.g. to look at the circuit breaker). */
  FaultyAnthropic onEachRequest(Runnable r) {
    this.onEachRequest = r;
    return this;
  }

  long count(String step) {
    synchronized (seen) {
      return seen.stream().filter(s -> s.step().equals(step)).count();
    }
  }

  List<Seen> of(String step) {
    synchronized (seen) {
      return seen.stream().filter(s -> s.step().equals(step)).toList();
    }
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    JsonNode body = Json.parse(request.getBody() == null ? "{}" : request.getBody().utf8());
    String system = body.path("system").asText("");
    String step = system.contains("## Degraded mode") ? DEGRADED
        : system.contains("## This step: classify") ? CLASSIFY
        : system.contains("## This step: write the reply") ? SYNTHESIZE : "unknown";
    seen.add(new Seen(step, System.nanoTime()));
    onEachRequest.run();
    Supplier<MockResponse> fault;
    synchronized (this) {
      fault = down != null ? down : step.equals(CLASSIFY) ? classifyFaults.poll()
          : step.equals(SYNTHESIZE) ? synthesizeFaults.poll() : null;
    }
    if (fault != null) {
      return fault.get();
    }
    return switch (step) {
      case CLASSIFY -> message("{\"speech_act\":\"greeting\",\"ambiguity\":\"low\"}");
      case SYNTHESIZE -> message(Json.object().put("response_text", ANSWER).toString());
      case DEGRADED -> message(DEGRADED_ANSWER);
      default -> error(400, "invalid_request_error", "unexpected request");
    };
  }

  static MockResponse message(String text) {
    return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
        .body("{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-fake\","
            + "\"content\":[" + Json.object().put("type", "text").put("text", text) + "],"
            + "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":100,\"output_tokens\":20}}")
        .build();
  }

  /** An Anthropic error body ({@code {"type":"error","error":{...}}}) with {@code status}. */
  static MockResponse error(int status, String type, String message) {
    return errorBuilder(status, type, message).build();
  }

  static MockResponse.Builder errorBuilder(int status, String type, String message) {
    return new MockResponse.Builder().code(status).setHeader("content-type", "application/json")
        .body("{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\"}}");
  }
}
