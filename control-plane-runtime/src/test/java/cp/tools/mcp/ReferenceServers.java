package cp.tools.mcp;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real reference MCP servers from npm, installed once per build into
 * {@code target/mcp-servers} of the module under test: {@code @modelcontextprotocol/server-everything}
 * (stdio and streamable HTTP) and {@code @modelcontextprotocol/server-memory}.
 *
 * <p>Where node or npm is missing the tests fail with a message saying so: they are never skipped
 * silently. Versions are pinned so a build tests what it tested yesterday.
 */
public final class ReferenceServers {
  public static final String EVERYTHING = "@modelcontextprotocol/server-everything";
  public static final String MEMORY = "@modelcontextprotocol/server-memory";
  /** The versions the tests were written against (both packages are released together). */
  public static final String VERSION = "2026.8.31";
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration HTTP_START_TIMEOUT = Duration.ofSeconds(30);

  private static Path installed;

  private ReferenceServers() {}

  /** The directory the packages are installed in (installing them on first use). */
  public static synchronized Path root() {
    if (installed != null) {
      return installed;
    }
    Path dir = Path.of("target", "mcp-servers").toAbsolutePath();
    Path marker = dir.resolve("installed-" + VERSION);
    // Test JVMs forked in parallel (forkCount) may ask at once: one installs, the others wait for it.
    try (FileChannel lockFile = FileChannel.open(Files.createDirectories(dir).resolve(".install.lock"),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock held = lockFile.lock()) {
      if (!Files.exists(marker)) {
        String npm = executable("npm").orElseThrow(() -> new AssertionError("npm is not on PATH ("
            + System.getenv("PATH") + "): the MCP tests install the reference servers " + EVERYTHING + " and "
            + MEMORY + " with npm; install Node.js 20+ with npm to run them"));
        run(List.of(npm, "install", "--prefix", dir.toString(), "--no-audit", "--no-fund", "--loglevel=error",
            EVERYTHING + "@" + VERSION, MEMORY + "@" + VERSION), dir);
        Files.writeString(marker, VERSION);
      }
    } catch (IOException e) {
      throw new AssertionError("cannot install the reference servers in " + dir + ": " + e.getMessage(), e);
    }
    installed = dir;
    return dir;
  }

  /** The path of node (failing loudly when it is missing). */
  public static String node() {
    return executable("node").orElseThrow(() -> new AssertionError("node is not on PATH (" + System.getenv("PATH")
        + "): the MCP tests run the reference servers with Node.js 20+; install it to run them"));
  }

  public static Path everythingScript() {
    return root().resolve("node_modules").resolve(EVERYTHING).resolve("dist/index.js");
  }

  public static Path memoryScript() {
    return root().resolve("node_modules").resolve(MEMORY).resolve("dist/index.js");
  }

  /** server-everything over stdio, with {@code env} as its definition's env. */
  public static McpServerSpec.Stdio everythingStdio(String name, Map<String, String> env) {
    return new McpServerSpec.Stdio(name, node(), List.of(everythingScript().toString(), "stdio"), env, null);
  }

  /** server-memory over stdio, keeping its graph in {@code file}. */
  public static McpServerSpec.Stdio memoryStdio(String name, Path file) {
    return new McpServerSpec.Stdio(name, node(), List.of(memoryScript().toString()),
        Map.of("MEMORY_FILE_PATH", file.toString()), null);
  }

  /** server-everything over streamable HTTP on a free port of 127.0.0.1; close it to stop it. */
  public static HttpServer everythingHttp() {
    return HttpServer.start(freePort());
  }

  /** A running HTTP reference server. */
  public static final class HttpServer implements AutoCloseable {
    private final int port;
    private Process process;

    private HttpServer(int port) {
      this.port = port;
    }

    static HttpServer start(int port) {
      HttpServer s = new HttpServer(port);
      s.restart();
      return s;
    }

    /** Starts the server (again) on the same port. */
    public void restart() {
      ProcessBuilder pb = new ProcessBuilder(node(), everythingScript().toString(), "streamableHttp")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("PORT", String.valueOf(port));
      try {
        process = pb.start();
      } catch (IOException e) {
        throw new AssertionError("cannot start the HTTP reference server", e);
      }
      long deadline = System.nanoTime() + HTTP_START_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
          return;
        } catch (IOException notYet) {
          if (!process.isAlive()) {
            throw new AssertionError("the HTTP reference server exited with " + process.exitValue());
          }
          sleep(100);
        }
      }
      throw new AssertionError("the HTTP reference server did not listen on " + port + " within " + HTTP_START_TIMEOUT);
    }

    /** Kills the server (SIGKILL) and waits for it to be gone. */
    public void kill() {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    public URI url() {
      return URI.create("http://127.0.0.1:" + port + "/mcp");
    }

    @Override
    public void close() {
      kill();
    }
  }

  /** The processes this JVM started whose command line mentions {@code text} (the stdio servers). */
  public static List<ProcessHandle> children(String text) {
    List<ProcessHandle> out = new ArrayList<>();
    ProcessHandle.current().descendants().forEach(p -> {
      String line = p.info().commandLine().orElse(String.join(" ", p.info().arguments().orElse(new String[0])));
      if (line.contains(text)) {
        out.add(p);
      }
    });
    return out;
  }

  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new AssertionError("no free port", e);
    }
  }

  private static Optional<String> executable(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (!dir.isBlank() && Files.isExecutable(p)) {
        return Optional.of(p.toString());
      }
    }
    return Optional.empty();
  }

  private static void run(List<String> command, Path dir) {
    try {
      Files.createDirectories(dir);
      Path log = Files.createTempFile("npm-install", ".log");
      Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      if (!p.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("npm install did not finish within " + INSTALL_TIMEOUT + ": " + command);
      }
      if (p.exitValue() != 0) {
        throw new AssertionError("npm install failed (exit " + p.exitValue() + "): " + command + "\n"
            + Files.readString(log, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new AssertionError("cannot run " + command + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted during " + command, e);
    }
  }

  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
