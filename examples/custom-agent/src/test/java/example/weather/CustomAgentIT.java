package example.weather;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's two commands, as CI runs them: the packaged tool jar and the agent definition, with
 * server-everything installed by {@code npm ci}, and {@code cpctl chat --agent WEATHER} (the CLI's
 * classes in a JVM of their own, the jar on {@code CP_TOOLS_PATH}, the offline model) asked to call
 * get_weather and the MCP tool everything_echo in the offline model's explicit form
 * ({@code call <tool> <json>}). Needs node and npm (and the npm registry, or its cache, once); it
 * fails saying so when they are missing, it never skips.
 */
class CustomAgentIT {
  static final Path JAR = Path.of("target", "custom-agent-tools.jar");
  static final Path WORKER_CLASSPATH = Path.of("target", "worker-classpath.txt");
  /** A cold npm ci takes a minute on a slow line; the chat's two turns take seconds. */
  static final Duration NPM_TIMEOUT = Duration.ofMinutes(5);
  static final Duration CHAT_TIMEOUT = Duration.ofMinutes(3);

  @TempDir Path tmp;

  @Test
  void cpctlChat_withTheToolJarAndTheDefinition_callsGetWeatherAndAnMcpTool() throws Exception {
    assertTrue(Files.isRegularFile(JAR), JAR + " is missing: this test runs in 'mvn verify', after 'package'");
    Path example = Files.createDirectories(tmp.resolve("custom-agent"));
    copy(Path.of("agents"), example.resolve("agents"));
    Files.copy(Path.of("package.json"), example.resolve("package.json"));
    Files.copy(Path.of("package-lock.json"), example.resolve("package-lock.json"));
    run(List.of(executable("npm"), "ci", "--no-audit", "--no-fund", "--loglevel=error"), example, NPM_TIMEOUT);

    Path home = tmp.resolve("home");
    Path out = tmp.resolve("chat.out");
    ProcessBuilder chat = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", Files.readString(WORKER_CLASSPATH, StandardCharsets.UTF_8).strip(), "cp.cli.Cpctl", "chat", "--agent",
        "WEATHER").redirectErrorStream(true).redirectOutput(out.toFile());
    chat.environment().clear();
    chat.environment().put("PATH", System.getenv("PATH"));
    chat.environment().put("HOME", System.getProperty("java.io.tmpdir"));
    chat.environment().put("CP_HOME", home.toString());
    chat.environment().put("CP_PROVIDER", "offline");
    chat.environment().put("CP_TOOLS_PATH", JAR.toAbsolutePath().toString());
    chat.environment().put("CP_AGENTS_DIR", example.resolve("agents").toString());
    Process p = chat.start();
    p.getOutputStream().write(("call get_weather {\"city\": \"Lisbon\"}\n"
        + "call everything_echo {\"message\": \"hello from MCP\"}\nexit\n").getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    boolean done = p.waitFor(CHAT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    if (!done) {
      p.destroyForcibly();
    }
    assertTrue(done, "cpctl chat did not end within " + CHAT_TIMEOUT + ":\n" + printed);
    assertEquals(0, p.exitValue(), printed);

    String lisbon = WeatherTools.weather("Lisbon").text();
    assertTrue(printed.contains(lisbon), "the reply carries the tool's answer '" + lisbon + "':\n" + printed);
    assertTrue(printed.contains("hello from MCP"), "the reply carries the MCP tool's answer:\n" + printed);
    List<JsonNode> calls = toolCalls(home.resolve("HO1/ledger/worker.jsonl"));
    assertEquals(2, calls.size(), calls::toString);
    assertEquals("get_weather", calls.get(0).at("/metadata/tool_id").asText());
    assertEquals("java", calls.get(0).at("/metadata/origin").asText());
    assertEquals(lisbon, calls.get(0).at("/metadata/result").asText());
    assertEquals("everything/echo", calls.get(1).at("/metadata/tool_id").asText());
    assertEquals("mcp:everything", calls.get(1).at("/metadata/origin").asText());
    assertEquals("Echo: hello from MCP", calls.get(1).at("/metadata/result").asText());
  }

  private static List<JsonNode> toolCalls(Path ledger) throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (Stream<String> lines = Files.lines(ledger)) {
      return lines.filter(l -> !l.isBlank()).map(l -> {
        try {
          return json.readTree(l);
        } catch (IOException e) {
          throw new AssertionError("not JSON: " + l, e);
        }
      }).filter(e -> "TOOL_CALL".equals(e.path("event_type").asText())).toList();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  private static String executable(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (!dir.isBlank() && Files.isExecutable(p)) {
        return p.toString();
      }
    }
    throw new AssertionError(name + " is not on PATH (" + System.getenv("PATH") + "): the example's agent starts the"
        + " reference MCP server with Node.js; install Node.js 20+ with npm to run this test");
  }

  private static void run(List<String> command, Path dir, Duration timeout) throws Exception {
    Path log = Files.createTempFile("npm", ".log");
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(command + " did not finish within " + timeout);
    }
    assertEquals(0, p.exitValue(), () -> command + " failed:\n" + read(log).orElse(""));
  }

  private static Optional<String> read(Path p) {
    try {
      return Optional.of(Files.readString(p, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
