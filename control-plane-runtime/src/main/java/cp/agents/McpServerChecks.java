package cp.agents;

import cp.tools.mcp.McpServerSpec;
import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks one {@code mcp_servers} entry and resolves it into an {@link McpServerSpec}: stdio or
 * HTTP (not both), {@code ${NAME}} references set, the stdio command found, the working directory
 * present, the URL well formed, and a warning for a secret written in the file.
 */
final class McpServerChecks {
  /** Header and variable names whose values are secrets: written literally in a file, they are warned about. */
  private static final Pattern SECRET_NAME = Pattern.compile(
      "(?i).*(authorization|cookie|token|secret|password|passwd|api[-_]?key|access[-_]?key|credential).*");

  private final String file;
  private final Path dir;
  private final Map<String, String> env;
  private final List<DefinitionProblem> problems;

  McpServerChecks(String file, Path dir, Map<String, String> env, List<DefinitionProblem> problems) {
    this.file = file;
    this.dir = dir;
    this.env = env;
    this.problems = problems;
  }

  Optional<McpServerSpec> check(String name, AgentDefinition.McpServer s) {
    String key = "mcp_servers." + name;
    int before = errors();
    if (!McpServerSpec.NAME.matcher(name).matches()) {
      error(key, "server name must be 1 to 32 letters, digits, _ or -, starting with a letter or digit (it"
          + " prefixes its tools' names)");
    }
    if ((s.command() == null) == (s.url() == null)) {
      error(key, s.command() == null ? "give command (a stdio server) or url (a streamable HTTP server)"
          : "give command (stdio) or url (HTTP), not both");
      return Optional.empty();
    }
    return s.stdio() ? stdio(name, key, s, before) : http(name, key, s, before);
  }

  private Optional<McpServerSpec> stdio(String name, String key, AgentDefinition.McpServer s, int before) {
    if (!s.headers().isEmpty()) {
      error(key + ".headers", "headers are for an HTTP server (url); a stdio server gets env");
    }
    String command = resolve(key + ".command", s.command());
    List<String> args = new ArrayList<>();
    for (int i = 0; i < s.args().size(); i++) {
      args.add(resolve(key + ".args[" + i + "]", s.args().get(i)));
    }
    Map<String, String> childEnv = new LinkedHashMap<>();
    s.env().forEach((k, v) -> {
      warnIfLiteralSecret(key + ".env." + k, k, v);
      childEnv.put(k, resolve(key + ".env." + k, v));
    });
    Path cwd = null;
    if (s.cwd() != null) {
      cwd = dir.resolve(resolve(key + ".cwd", s.cwd())).toAbsolutePath().normalize();
      if (!Files.isDirectory(cwd)) {
        error(key + ".cwd", cwd + " is not a directory");
      }
    }
    Optional<Path> found = command == null || command.isEmpty() ? Optional.empty() : findCommand(command, cwd);
    if (command != null && !command.isEmpty() && found.isEmpty()) {
      error(key + ".command", command.contains("/") ? "'" + command + "' does not exist or is not executable"
          : "'" + command + "' was not found on PATH (" + env.getOrDefault("PATH", "unset") + ")");
    }
    if (errors() > before) {
      return Optional.empty();
    }
    Map<String, String> references = new LinkedHashMap<>();
    EnvReferences.referenced(s.command(), env, references);
    s.args().forEach(a -> EnvReferences.referenced(a, env, references));
    s.env().values().forEach(v -> EnvReferences.referenced(v, env, references));
    EnvReferences.referenced(s.cwd(), env, references);
    // A path runs as the check found it (relative to cwd, else to the definition's directory), not relative
    // to wherever the worker was started.
    String runs = command.contains("/") ? found.orElseThrow().toString() : command;
    return Optional.of(new McpServerSpec.Stdio(name, runs, args, childEnv, cwd, references));
  }

  private Optional<McpServerSpec> http(String name, String key, AgentDefinition.McpServer s, int before) {
    if (!s.args().isEmpty() || !s.env().isEmpty() || s.cwd() != null) {
      error(key, "args, env and cwd are for a stdio server (command); an HTTP server gets headers");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    s.headers().forEach((k, v) -> {
      warnIfLiteralSecret(key + ".headers." + k, k, v);
      headers.put(k, resolve(key + ".headers." + k, v));
    });
    String raw = resolve(key + ".url", s.url());
    URI url = null;
    if (raw != null) {
      try {
        url = new URI(raw);
        if (url.getScheme() == null || !url.getScheme().toLowerCase(Locale.ROOT).matches("https?")
            || url.getHost() == null) {
          error(key + ".url", "'" + redactedText(raw) + "' is not an http:// or https:// URL with a host, e.g."
              + " http://127.0.0.1:3001/mcp");
          url = null;
        }
      } catch (URISyntaxException e) {
        error(key + ".url", "malformed URL '" + redactedText(raw) + "': " + e.getReason());
      }
    }
    if (errors() > before || url == null) {
      return Optional.empty();
    }
    return Optional.of(new McpServerSpec.Http(name, url, headers));
  }

  /** The value with references replaced, or null after adding the problems. */
  private String resolve(String key, String value) {
    EnvReferences.Resolved r = EnvReferences.resolve(value, env);
    r.problems().forEach(p -> error(key, p));
    return r.ok() ? r.value() : null;
  }

  private void warnIfLiteralSecret(String key, String name, String value) {
    if (SECRET_NAME.matcher(name).matches() && EnvReferences.hasLiteral(value)) {
      problems.add(new DefinitionProblem(file, key, "a secret is written in the file; write ${NAME} and set NAME in"
          + " the worker's environment, so the file can be shared and committed", true));
    }
  }

  /** A command with a slash is a path (relative to the working directory or the definition); else looked up on PATH. */
  private Optional<Path> findCommand(String command, Path cwd) {
    if (command.contains("/")) {
      Path p = (cwd == null ? dir : cwd).resolve(command).toAbsolutePath().normalize();
      return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    for (String entry : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      Path p = Path.of(entry).resolve(command);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** A URL as text without what may be a secret (user info, query). */
  private static String redactedText(String raw) {
    return raw.replaceAll("//[^/@]*@", "//...@").replaceAll("\\?.*$", "?...");
  }

  private void error(String key, String message) {
    problems.add(new DefinitionProblem(file, key, message, false));
  }

  private int errors() {
    return (int) problems.stream().filter(p -> !p.warning()).count();
  }
}
