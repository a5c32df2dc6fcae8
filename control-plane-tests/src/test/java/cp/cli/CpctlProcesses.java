package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code cpctl} processes started from {@code target/control-plane.jar}, each its own JVM with
 * its stdout and stderr in files, for the multi-process integration tests. Closing it kills every
 * process it started (and their children) and waits for them.
 */
final class CpctlProcesses implements AutoCloseable {
  /** How long one step (a start, a turn, a recovery) may take; it normally takes a fraction of it. */
  static final Duration STEP_TIMEOUT = Duration.ofSeconds(40);
  /** Child JVMs: small heap, quick start. */
  static final List<String> CHILD_JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
  /** How often output files are polled while waiting for a line. */
  static final Duration POLL = Duration.ofMillis(50);
  /** A stream in a failure message shows at most this much of its end. */
  static final int SHOWN_CHARS = 3000;

  /** What starts cpctl after the JVM options: {@code -jar target/control-plane.jar}, or the test classpath. */
  private final List<String> launcher;
  private final Path dir;
  private final List<Cli> started = new CopyOnWriteArrayList<>();
  private Supplier<String> context = () -> "";

  CpctlProcesses(Path dir) {
    Path jar = Path.of(System.getProperty("cp.jar", "../control-plane-cli/target/control-plane.jar")).toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), "no " + jar + ": run 'mvn verify' (the package phase builds it)");
    this.launcher = List.of("-jar", jar.toString());
    this.dir = dir;
  }

  private CpctlProcesses(Path dir, List<String> launcher) {
    this.launcher = List.copyOf(launcher);
    this.dir = dir;
  }

  /**
   * cpctl processes started from this test JVM's own classpath ({@code cp.cli.Cpctl} as the main
   * class): real separate JVMs for unit tests that need signals or sockets, without the jar.
   */
  static CpctlProcesses onClasspath(Path dir) {
    return new CpctlProcesses(dir, List.of("-cp", System.getProperty("java.class.path"), Cpctl.class.getName()));
  }

  /** Extra lines for failure messages (e.g. what the fake model saw). */
  CpctlProcesses describing(Supplier<String> extra) {
    this.context = extra;
    return this;
  }

  /** One cpctl process with its stdout and stderr in files. */
  final class Cli {
    final String name;
    final Process process;
    final Path out;
    final Path err;

    Cli(String name, Process process, Path out, Path err) {
      this.name = name;
      this.process = process;
      this.out = out;
      this.err = err;
    }

    String stdout() {
      return read(out);
    }

    String stderr() {
      return read(err);
    }

    /** Lines of stdout equal to {@code line}. */
    long countLines(String line) {
      return stdout().lines().filter(line::equals).count();
    }

    int awaitExit() throws InterruptedException {
      return awaitExit(STEP_TIMEOUT);
    }

    int awaitExit(Duration timeout) throws InterruptedException {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        fail(name + " did not finish within " + timeout + "\n" + describeAll());
      }
      return process.exitValue();
    }

    void awaitOutput(String text) throws InterruptedException {
      await(text, out);
    }

    void awaitStderr(String text) throws InterruptedException {
      await(text, err);
    }

    private void await(String text, Path stream) throws InterruptedException {
      long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        if (read(stream).contains(text)) {
          return;
        }
        if (!process.isAlive()) {
          fail(name + " exited with " + process.exitValue() + " before printing '" + text + "'\n" + describeAll());
        }
        Thread.sleep(POLL.toMillis());
      }
      fail(name + " did not print '" + text + "' within " + STEP_TIMEOUT + "\n" + describeAll());
    }

    /** Sends {@code signal} (e.g. "INT", what Ctrl-C in a terminal sends) to the process itself, not its children. */
    void signal(String signal) throws IOException, InterruptedException {
      assertSignalNotIgnored(signal);
      Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
      assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + process.pid());
    }

    /**
     * A process started from a shell's background job without job control ({@code (cmd &)}) ignores
     * SIGINT and SIGQUIT, and so does every JVM under it: the JVM then never runs its shutdown hooks
     * on them, and a test waiting for their effect would wait out its timeout. Said at once instead.
     */
    private void assertSignalNotIgnored(String signal) throws IOException {
      int number = switch (signal) {
        case "INT" -> 2;
        case "QUIT" -> 3;
        default -> 0;
      };
      Path status = Path.of("/proc", String.valueOf(process.pid()), "status");
      if (number == 0 || !Files.isReadable(status)) {
        return;
      }
      String ignored = Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:"))
          .map(l -> l.substring("SigIgn:".length()).trim()).findFirst().orElse("0");
      assertEquals(0L, Long.parseUnsignedLong(ignored, 16) & (1L << (number - 1)), "SIG" + signal + " is ignored by "
          + name + " (and by the process that started this test suite: started as a background job without job"
          + " control, e.g. '(mvn verify &)'); run the suite in the foreground, or with 'set -m', to test it");
    }

    /** Writes {@code text} to the process's stdin (only for {@link #startInteractive}). */
    void type(String text) throws IOException {
      process.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    }

    /** SIGKILL, as a crash or an OOM killer would; returns once the process is gone. */
    void kill() throws InterruptedException {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      assertTrue(process.waitFor(10, TimeUnit.SECONDS), name + " did not die on SIGKILL");
    }

    /** SIGTERM (graceful shutdown); returns once the process is gone. */
    void stop() throws InterruptedException {
      process.destroy();
      assertTrue(process.waitFor(20, TimeUnit.SECONDS), name + " did not shut down on SIGTERM\n" + describe());
    }

    String describe() {
      return "== " + name + (process.isAlive() ? " (running)" : " (exit " + process.exitValue() + ")")
          + "\n-- stdout:\n" + tail(stdout()) + "\n-- stderr:\n" + tail(stderr());
    }
  }

  /** Starts {@code cpctl args...} with exactly {@code env} (nothing of the developer's CP_, TEMPORAL_ or key variables). */
  /** Starts {@code cpctl dev-server} on a free port, waits until it listens, and returns the port. */
  int startDevServer() throws IOException, InterruptedException {
    int port = freePort();
    start("dev-server", Map.of(), "dev-server", "--port", String.valueOf(port)).awaitOutput("listening on");
    return port;
  }

  Cli start(String name, Map<String, String> env, String... args) throws IOException {
    return start(name, false, env, args);
  }

  /** Like {@link #start}, with stdin a pipe the test writes to ({@link Cli#type}) and that stays open. */
  Cli startInteractive(String name, Map<String, String> env, String... args) throws IOException {
    return start(name, true, env, args);
  }

  private Cli start(String name, boolean interactive, Map<String, String> env, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(CHILD_JVM_OPTIONS);
    cmd.addAll(launcher);
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("CP_") || k.startsWith("TEMPORAL_")
        || k.startsWith("ANTHROPIC_") || k.startsWith("OPENAI_"));
    pb.environment().putAll(env);
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    if (!interactive) {
      pb.redirectInput(Files.writeString(dir.resolve(name + ".in"), "").toFile());
    }
    Cli cli = new Cli(name, pb.start(), out, err);
    started.add(cli);
    return cli;
  }

  String describeAll() {
    StringBuilder sb = new StringBuilder(context.get()).append('\n');
    for (Cli c : started) {
      sb.append(c.describe()).append('\n');
    }
    return sb.toString();
  }

  /** Kills every process started here except {@code keep}, and forgets them. */
  void killAllBut(Cli keep) {
    for (Cli c : started) {
      if (c != keep) {
        destroy(c);
        started.remove(c);
      }
    }
  }

  @Override
  public void close() {
    started.forEach(CpctlProcesses::destroy);
    started.clear();
  }

  private static void destroy(Cli c) {
    c.process.descendants().forEach(ProcessHandle::destroyForcibly);
    c.process.destroyForcibly();
    try {
      c.process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static String tail(String s) {
    return s.length() <= SHOWN_CHARS ? s : "[...]" + s.substring(s.length() - SHOWN_CHARS);
  }
}
