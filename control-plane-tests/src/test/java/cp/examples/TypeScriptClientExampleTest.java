package cp.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cp.model.SessionState;
import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalConnection;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowStub;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 6: {@code examples/typescript-client} runs. Node.js with {@code @temporalio/client}
 * (the version its package-lock.json pins, installed by {@code npm ci}) drives a session on a real
 * Temporal service listening on a loopback port, served by the plane's worker in this JVM (offline
 * provider), using only the documented client contract: start, two turns, the state Query, end,
 * and three refusals. Without node or npm the test fails saying what to install; it never skips.
 */
class TypeScriptClientExampleTest {
  static final Path EXAMPLE = Path.of("..", "examples", "typescript-client");
  /** What {@code npm ci} may take: a fresh clone downloads ~40 packages (8 s here, minutes on a slow mirror). */
  static final Duration NPM_CI_TIMEOUT = Duration.ofSeconds(300);
  /** What the example may take: two offline turns and five calls take ~3 s; the rest is slack for a loaded machine. */
  static final Duration EXAMPLE_TIMEOUT = Duration.ofSeconds(120);
  /** {@code @temporalio/client} 1.24 requires Node >= 20.3. */
  static final int NODE_MAJOR = 20;
  static final String INSTALL = "install Node.js 20 and npm (apt-get install nodejs npm) to run this test";

  @TempDir Path tmp;

  record Run(int exit, String output) {}

  /** Runs a command in {@code dir}, its output to {@code log}; fails the test on a timeout. */
  static Run run(Path dir, Map<String, String> env, Duration timeout, Path log, String... cmd)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      fail(String.join(" ", cmd) + " did not finish within " + timeout.toSeconds() + " s; its output:\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  /** {@code tool --version}, or a failure saying what to install. */
  String requireTool(String tool) throws InterruptedException {
    try {
      Run r = run(tmp, Map.of(), Duration.ofSeconds(30), tmp.resolve(tool + "-version.log"), tool, "--version");
      if (r.exit() != 0) {
        fail(INSTALL + ": `" + tool + " --version` exited " + r.exit() + ": " + r.output());
      }
      return r.output().strip();
    } catch (IOException e) {
      return fail(INSTALL + ": `" + tool + "` was not found on PATH (" + e.getMessage() + ")");
    }
  }

  static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void theExampleDrivesASessionThroughTheDocumentedContract() throws Exception {
    // (i) node and npm, or a failure saying what to install.
    String node = requireTool("node");
    Matcher v = Pattern.compile("v(\\d+)\\.").matcher(node);
    assertTrue(v.find() && Integer.parseInt(v.group(1)) >= NODE_MAJOR,
        INSTALL + ": found node " + node + ", the example needs " + NODE_MAJOR + " or later");
    requireTool("npm");

    // (ii) npm ci in a copy of the example: the source tree stays as committed.
    Path app = Files.createDirectories(tmp.resolve("typescript-client"));
    for (String f : List.of("package.json", "package-lock.json", "session.mjs")) {
      Files.copy(EXAMPLE.resolve(f), app.resolve(f));
    }
    Map<String, String> npmEnv = Map.of("npm_config_update_notifier", "false");
    long t0 = System.nanoTime();
    Run ci = run(app, npmEnv, NPM_CI_TIMEOUT, tmp.resolve("npm-ci.log"),
        "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline");
    long npmMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(0, ci.exit(), "npm ci failed (the npm registry must be reachable the first time):\n" + ci.output());
    System.out.println("npm ci: " + npmMs + " ms");

    // (iii) the plane: an embedded Temporal service on a loopback port and a worker, as
    // `cpctl dev-server` and `cpctl worker` run them.
    int port = freeLoopbackPort();
    String address = "127.0.0.1:" + port;
    Map<String, String> planeEnv = new HashMap<>();
    planeEnv.put("CP_HOME", Files.createDirectories(tmp.resolve("cp-home")).toString());
    planeEnv.put("CP_PROVIDER", "offline");
    planeEnv.put("TEMPORAL_ADDRESS", address);
    PlaneConfig config = PlaneConfig.fromEnv(planeEnv);
    try (EmbeddedTemporal server = EmbeddedTemporal.onPort(port)) {
      SearchAttributeRegistrar.ensure(server.operator(), PlaneConfig.DEFAULT_NAMESPACE);
      try (PlaneRuntime runtime = PlaneRuntime.open(config);
          TemporalConnection conn = TemporalConnection.open(config);
          PlaneWorker worker = PlaneWorker.start(conn, runtime, "example-test")) {

        // (iv) the example, against that address, with nothing else inherited from our config.
        Map<String, String> exampleEnv = new HashMap<>();
        exampleEnv.put("TEMPORAL_ADDRESS", address);
        exampleEnv.put("TEMPORAL_NAMESPACE", PlaneConfig.DEFAULT_NAMESPACE);
        exampleEnv.put("CP_TASK_QUEUE", config.worker().taskQueue());
        long t1 = System.nanoTime();
        Run r = run(app, exampleEnv, EXAMPLE_TIMEOUT, tmp.resolve("session.log"), "node", "session.mjs");
        System.out.println("node session.mjs: " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1) + " ms");
        String out = r.output();
        System.out.println(out);
        assertEquals(0, r.exit(), out);
        assertFalse(out.contains("UNEXPECTED"), out);

        Matcher started = Pattern.compile("started (SES-[0-9a-f]{8}) \\(agent ADMIN").matcher(out);
        assertTrue(started.find(), out);
        String sid = started.group(1);
        assertTrue(out.contains("turn 1 [success] > hello\nreply: Hello! I am the offline rule-based model"), out);
        assertTrue(out.contains("turn 2 [success] > what packages are installed?\nreply: "), out);
        assertTrue(Pattern.compile("reply: \\d+ packages are installed:\n- 2 agents: ADMIN").matcher(out).find(),
            "the list_packages tool ran:\n" + out);
        assertTrue(out.contains("state: turns=2 "), out);
        assertTrue(out.contains("streamed 1: Hello! I am the offline rule-based model"), "turn 1 streamed: " + out);
        assertEquals(2, out.split("streamed reply equals the result: true", -1).length - 1,
            "both turns' streamed replies equal their results: " + out);
        assertTrue(out.contains(" ended=false\n"), out);
        assertTrue(out.contains("refused (turn with {\"message\": \"hi\"}): turn_refused unknown_field field=message:"
            + " turn expects {\"text\": string}; got field 'message'"), out);
        assertTrue(out.contains("ended " + sid + ": end_reason=end turns=2 "), out);
        Matcher refusedStart = Pattern.compile("refused \\(start of (SES-[0-9a-f]{8}) without agent_class\\):"
            + " start_refused missing_field field=agent_class: start input: agent_class is missing").matcher(out);
        assertTrue(refusedStart.find(), out);
        assertTrue(out.contains("workflow " + refusedStart.group(1) + ": FAILED\n"), out);
        assertTrue(out.contains("refused (turn after end): "), out);
        assertTrue(out.contains("workflow " + sid + ": COMPLETED\n"), out);
        assertTrue(out.contains("ended=true end_reason=end\n"), out);
        assertTrue(out.contains("done: the session behaved as the contract says"), out);

        // What the example printed is what the service holds: the session it ran is closed, ended
        // by `end` after two turns, and the refused start is a failed workflow.
        WorkflowStub stub = conn.client().newUntypedWorkflowStub(sid);
        assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, stub.describe().getStatus());
        SessionState st = stub.query("state", SessionState.class);
        assertTrue(st.ended());
        assertEquals("end", st.endReason());
        assertEquals(2, st.turns());
        assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED,
            conn.client().newUntypedWorkflowStub(refusedStart.group(1)).describe().getStatus());
      }
    }
  }
}
