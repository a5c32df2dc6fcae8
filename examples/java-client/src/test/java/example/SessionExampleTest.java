package example;

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
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: {@code examples/java-client} runs, needing nothing but control-plane-client. The
 * example runs in a separate JVM whose classpath is its own classes plus its runtime dependency
 * closure (as Maven resolved it into {@code target/example-classpath.txt}), against a plane this
 * test hosts the way {@code cpctl dev-server} + {@code cpctl worker} do: an embedded Temporal
 * service on a loopback port and a worker with the offline provider.
 */
class SessionExampleTest {
  static final Path CLASSES = Path.of("target", "classes");
  static final Path CLASSPATH_FILE = Path.of("target", "example-classpath.txt");
  /** Two offline turns and a dozen calls take a few seconds; the rest is slack for a loaded 2-core machine. */
  static final Duration EXAMPLE_TIMEOUT = Duration.ofSeconds(120);
  /** Jars that must not be on a client application's classpath (issue 12). */
  static final List<String> BANNED = List.of("control-plane-runtime", "control-plane-bench", "control-plane-cli/",
      "control-plane-cli-", "logback", "temporal-testing", "okhttp", "picocli", "json-schema-validator", "micrometer");

  @TempDir Path tmp;

  static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** The example's classes and its runtime dependencies, nothing of this test's classpath. */
  static String exampleClasspath() throws IOException {
    assertTrue(Files.isRegularFile(CLASSPATH_FILE), CLASSPATH_FILE + " is missing: run the test through Maven"
        + " (maven-dependency-plugin build-classpath writes it)");
    String deps = Files.readString(CLASSPATH_FILE, StandardCharsets.UTF_8).strip();
    List<String> entries = new ArrayList<>(List.of(deps.split(Pattern.quote(File.pathSeparator))));
    assertTrue(entries.stream().anyMatch(e -> e.contains("control-plane-client")), "the client is on it: " + deps);
    for (String e : entries) {
      for (String banned : BANNED) {
        // The whole path: in a reactor build an entry is a module's target/classes directory.
        assertFalse(e.replace('\\', '/').contains(banned), banned + " on the example's classpath: " + e);
      }
    }
    entries.add(0, CLASSES.toAbsolutePath().toString());
    return String.join(File.pathSeparator, entries);
  }

  @Test
  void theExampleDrivesASession_onlyThroughControlPlaneClient() throws Exception {
    String classpath = exampleClasspath();

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
          PlaneWorker worker = PlaneWorker.start(conn, runtime, "java-example-test")) {

        Path log = tmp.resolve("example.log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", classpath, "example.SessionExample").redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("CP_") || k.startsWith("TEMPORAL_"));
        pb.environment().put("TEMPORAL_ADDRESS", address);
        pb.environment().put("TEMPORAL_NAMESPACE", PlaneConfig.DEFAULT_NAMESPACE);
        pb.environment().put("CP_TASK_QUEUE", config.worker().taskQueue());
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(EXAMPLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
          fail("the example did not finish within " + EXAMPLE_TIMEOUT.toSeconds() + " s:\n" + Files.readString(log));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println("SessionExampleTest: the example ran in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
            - t0) + " ms:\n" + out);
        assertEquals(0, p.exitValue(), out);
        assertFalse(out.contains("UNEXPECTED"), out);

        Matcher started = Pattern.compile("started (SES-[0-9a-f]{8}) \\(agent ADMIN\\)").matcher(out);
        assertTrue(started.find(), out);
        String sid = started.group(1);
        assertTrue(out.contains("turn 1 [success] > hello\nreply: Hello! I am the offline rule-based model"), out);
        assertTrue(Pattern.compile("turn 2 \\[success] > what packages are installed\\?\nreply: \\d+ packages are"
            + " installed:").matcher(out).find(), out);
        // Offline steps take milliseconds, so which ones a 150 ms poll catches varies; the last is done.
        assertTrue(Pattern.compile("steps of turn 2: ([a-z_ 0-9()]+, )*done\n").matcher(out).find(),
            "the progress callback reported the turn's steps:\n" + out);
        assertTrue(out.contains("state: turns=2 ") && out.contains(" ended=false\n"), out);
        assertTrue(out.contains("ended " + sid + ": end_reason=end turns=2 "), out);
        assertTrue(Pattern.compile("refused \\(start with agent class ROOT\\): REFUSED unknown_agent_class: session"
            + " SES-[0-9a-f]{8} could not start: start input: agent_class 'ROOT' is unknown \\(known: ADMIN, RESIDENT\\)")
            .matcher(out).find(), out);
        assertTrue(Pattern.compile("refused \\(turn of \\d+ bytes\\): REFUSED text_too_long: the message is \\d+ bytes;"
            + " the limit is \\d+ bytes").matcher(out).find(), out);
        assertTrue(out.contains("refused (turn after end): ENDED session_ended: session " + sid + " has ended (end at "),
            out);
        assertTrue(out.contains("state after end: turns=2 ended=true end_reason=end\n"), out);
        assertTrue(out.contains("done: the session behaved as the contract says"), out);
        assertFalse(out.contains("cpctl"), "a library user is never told to run cpctl:\n" + out);

        // What the example printed is what the service holds.
        WorkflowStub stub = conn.client().newUntypedWorkflowStub(sid);
        assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, stub.describe().getStatus());
        SessionState st = stub.query("state", SessionState.class);
        assertTrue(st.ended());
        assertEquals("end", st.endReason());
        assertEquals(2, st.turns());
      }
    }
  }
}
