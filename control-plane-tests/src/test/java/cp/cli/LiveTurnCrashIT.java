package cp.cli;

import static cp.gateway.stream.SseBody.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.stream.SseBody;
import cp.model.Json;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 "done when": the worker is killed with SIGKILL while the model streams the reply and a
 * {@code cpctl turn} client prints it. Another worker repeats the call (the model streams the same
 * reply again); the client, connected throughout, ends with the complete reply printed once: the
 * text it had already shown is not shown again (the turn skips the common prefix) and nothing is
 * withdrawn. Separate JVMs: a dev server, two workers, the client.
 */
class LiveTurnCrashIT {
  static final int WORDS = 30;
  static final long PAUSE_MS = 100;
  /** Deltas the first stream has sent when the worker is killed: well into the reply. */
  static final int KILL_AFTER_EVENTS = 12;

  @TempDir Path dir;
  private final MockWebServer server = new MockWebServer();
  private CpctlProcesses procs;

  @AfterEach
  void cleanUp() {
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  static String reply() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < WORDS; i++) {
      sb.append("word").append(i).append(' ');
    }
    return sb.append("end.").toString();
  }

  static SseBody stream() {
    List<String> events = new ArrayList<>();
    events.add(event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_live\",\"type\":\"message\","
        + "\"role\":\"assistant\",\"model\":\"claude-live\",\"content\":[],\"usage\":{\"input_tokens\":50,"
        + "\"output_tokens\":1}}}"));
    events.add(event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
        + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"));
    events.add(delta("{\\\"response_text\\\": \\\""));
    for (int i = 0; i < WORDS; i++) {
      events.add(delta("word" + i + " "));
    }
    events.add(delta("end.\\\"}"));
    events.add(event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"));
    events.add(event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
        + "\"usage\":{\"output_tokens\":60}}"));
    events.add(event("message_stop", "{\"type\":\"message_stop\"}"));
    return SseBody.of(events, PAUSE_MS);
  }

  static String delta(String escaped) {
    return event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
        + "\"delta\":{\"type\":\"text_delta\",\"text\":\"" + escaped + "\"}}");
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void sigkillOfTheWorkerMidStream_theClientEndsWithTheWholeReplyOnce() throws Exception {
    List<SseBody> streams = Collections.synchronizedList(new ArrayList<>());
    server.setDispatcher(new Dispatcher() {
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
    });
    server.start(InetAddress.getLoopbackAddress(), 0);
    procs = CpctlProcesses.onClasspath(dir);
    int port = CpctlProcesses.freePort();
    CpctlProcesses.Cli devServer = procs.start("dev-server", Map.of(), "dev-server", "--port", String.valueOf(port));
    devServer.awaitOutput("listening on");

    Map<String, String> env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    env.put("CP_HOME", dir.resolve("home").toString());
    env.put("CP_TASK_QUEUE", "live-crash");
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", "test-key");
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    env.put("CP_HEARTBEAT_TIMEOUT_MS", MultiProcessCrashIT.HEARTBEAT_TIMEOUT_MS);

    CpctlProcesses.Cli worker1 = procs.start("worker-1", env, "worker");
    worker1.awaitOutput("sticky off");
    CliHarness.Run start = CliHarness.run(env, "session", "start");
    assertEquals(Cpctl.OK, start.code(), start::describe);
    String sid = start.out().trim();

    CpctlProcesses.Cli turn = procs.start("turn", env, "turn", "--session", sid, "explain it word by word");
    long deadline = System.nanoTime() + CpctlProcesses.STEP_TIMEOUT.toNanos();
    while (streams.isEmpty() || streams.get(0).sentNanos.size() < KILL_AFTER_EVENTS
        || !turn.stdout().contains("word3 ")) {
      if (System.nanoTime() > deadline) {
        fail("the reply never streamed to the client\n" + procs.describeAll());
      }
      Thread.sleep(20);
    }
    String shownBeforeKill = turn.stdout();
    worker1.kill();
    assertTrue(streams.get(0).sentNanos.size() < WORDS + 7, "killed mid-stream, before the stream's last event");

    CpctlProcesses.Cli worker2 = procs.start("worker-2", env, "worker");
    worker2.awaitOutput("sticky off");
    int exit = turn.awaitExit(java.time.Duration.ofSeconds(90));

    assertEquals(0, exit, turn::describe);
    assertTrue(streams.size() >= 2, "the call was repeated after the kill: " + streams.size() + " streams");
    List<String> lines = turn.stdout().lines().toList();
    assertEquals(2, lines.size(), turn::describe);
    assertEquals(reply(), lines.get(0), "the whole reply, each word once");
    assertTrue(lines.get(0).startsWith(shownBeforeKill), "what was shown before the kill stayed: " + shownBeforeKill);
    assertTrue(lines.get(1).startsWith("  [success · "), turn::describe);
    assertFalse(turn.stderr().contains("withdrawn"), "the repeated call wrote the same text: nothing withdrawn\n"
        + turn.describe());
    System.out.printf("LiveTurnCrashIT: %d characters shown before the kill, %d streams, reply printed once%n",
        shownBeforeKill.length(), streams.size());
    worker2.stop();
  }
}
