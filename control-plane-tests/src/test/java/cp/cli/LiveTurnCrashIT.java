package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cp.gateway.stream.SlowAnthropic;
import cp.gateway.stream.SseBody;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
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

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void sigkillOfTheWorkerMidStream_theClientEndsWithTheWholeReplyOnce() throws Exception {
    SlowAnthropic model = new SlowAnthropic(WORDS, PAUSE_MS);
    List<SseBody> streams = model.streams;
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    procs = CpctlProcesses.onClasspath(dir);
    int port = procs.startDevServer();

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

    // --stream: its stdout is a pipe, and this test watches the reply arrive before the kill.
    CpctlProcesses.Cli turn = procs.start("turn", env, "turn", "--session", sid, "--stream", "explain it word by word");
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
    assertTrue(streams.get(0).sentNanos.size() < model.events(), "killed mid-stream, before the stream's last event");

    CpctlProcesses.Cli worker2 = procs.start("worker-2", env, "worker");
    worker2.awaitOutput("sticky off");
    int exit = turn.awaitExit(java.time.Duration.ofSeconds(90));

    assertEquals(0, exit, turn::describe);
    assertTrue(streams.size() >= 2, "the call was repeated after the kill: " + streams.size() + " streams");
    List<String> lines = turn.stdout().lines().toList();
    assertEquals(2, lines.size(), turn::describe);
    assertEquals(model.reply(), lines.get(0), "the whole reply, each word once");
    assertTrue(lines.get(0).startsWith(shownBeforeKill), "what was shown before the kill stayed: " + shownBeforeKill);
    assertTrue(lines.get(1).startsWith("  [success · "), turn::describe);
    assertFalse(turn.stderr().contains("withdrawn"), "the repeated call wrote the same text: nothing withdrawn\n"
        + turn.describe());
    System.out.printf("LiveTurnCrashIT: %d characters shown before the kill, %d streams, reply printed once%n",
        shownBeforeKill.length(), streams.size());
    worker2.stop();
  }
}
