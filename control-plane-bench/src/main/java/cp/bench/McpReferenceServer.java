package cp.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The reference MCP server P7 calls, {@code @modelcontextprotocol/server-everything} from npm, at
 * the version the tests pin: in {@code CP_BENCH_MCP_DIR} when set (an existing {@code npm install}
 * prefix), else installed once into the benchmark's home with npm.
 *
 * @param node the node executable
 * @param script the server's entry point ({@code dist/index.js}), run with {@code stdio}
 */
record McpReferenceServer(String node, Path script) {
  static final String PACKAGE = "@modelcontextprotocol/server-everything";
  /** The version the MCP tests are written against. */
  static final String VERSION = "2026.8.31";
  static final String DIR_VARIABLE = "CP_BENCH_MCP_DIR";
  static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);

  static McpReferenceServer locate(Map<String, String> env, Path fallbackDir) throws IOException, InterruptedException {
    String path = env.getOrDefault("PATH", System.getenv().getOrDefault("PATH", ""));
    String node = executable("node", path).orElseThrow(() -> new IllegalStateException("P7 needs node on PATH to run"
        + " the reference MCP server " + PACKAGE + "; install Node.js 20+ or leave P7 out (--only)"));
    Path dir = env.containsKey(DIR_VARIABLE) ? Path.of(env.get(DIR_VARIABLE)) : fallbackDir;
    Path script = dir.resolve("node_modules").resolve(PACKAGE).resolve("dist/index.js");
    if (!Files.isRegularFile(script)) {
      String npm = executable("npm", path).orElseThrow(() -> new IllegalStateException("P7 needs npm on PATH to"
          + " install " + PACKAGE + " (or " + DIR_VARIABLE + " naming a directory where it is installed)"));
      Files.createDirectories(dir);
      Process p = new ProcessBuilder(npm, "install", "--prefix", dir.toString(), "--no-audit", "--no-fund",
          "--loglevel=error", PACKAGE + "@" + VERSION).redirectErrorStream(true)
          .redirectOutput(dir.resolve("npm-install.log").toFile()).start();
      if (!p.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException("npm could not install " + PACKAGE + "@" + VERSION + " into " + dir + " (see "
            + dir.resolve("npm-install.log") + ")");
      }
    }
    return new McpReferenceServer(node, script);
  }

  private static Optional<String> executable(String name, String path) {
    for (String d : path.split(File.pathSeparator)) {
      Path p = Path.of(d, name);
      if (!d.isBlank() && Files.isExecutable(p)) {
        return Optional.of(p.toString());
      }
    }
    return Optional.empty();
  }
}
