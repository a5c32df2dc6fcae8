package cp.tools.mcp;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How to reach one MCP server, with {@code ${NAME}} references already replaced by their values.
 *
 * <p>The values of {@code env} and {@code headers} may be secrets: {@link #toString()} and
 * {@link #describe()} show their names only, so a spec can reach a log line or an exception safely.
 * A stdio server's command line shows each value taken from a {@code ${NAME}} reference as the
 * reference, so a key passed as an argument ({@code --api-key ${SVC_TOKEN}}) is never printed.
 */
public sealed interface McpServerSpec permits McpServerSpec.Stdio, McpServerSpec.Http {
  /** A server name: it prefixes its tools' names, {@code <server>/<tool>} and {@code <server>_<tool>}. */
  Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,31}");

  /** The server's name in its definition. */
  String name();

  /** How the server is reached, for messages and {@code cpctl agents}: command and arguments or URL, no secret. */
  String describe();

  /**
   * A server the worker starts and talks to over its stdin and stdout.
   *
   * @param command the executable, a path or a name looked up on PATH
   * @param env variables the server gets besides the minimal environment ({@link MinimalEnvironment})
   * @param cwd its working directory, or null for the worker's
   */
  record Stdio(String name, String command, List<String> args, Map<String, String> env, Path cwd,
      Map<String, String> references) implements McpServerSpec {
    public Stdio {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(command, "command");
      args = args == null ? List.of() : List.copyOf(args);
      env = env == null ? Map.of() : Map.copyOf(env);
      references = references == null ? Map.of() : Map.copyOf(references);
    }

    /** A server whose values hold no {@code ${NAME}} reference. */
    public Stdio(String name, String command, List<String> args, Map<String, String> env, Path cwd) {
      this(name, command, args, env, cwd, Map.of());
    }

    @Override
    public String describe() {
      String line = String.join(" ", prepend(command, args));
      // Longest values first, so a value inside another is not replaced inside the longer one's place.
      for (Map.Entry<String, String> r : references.entrySet().stream()
          .sorted((a, b) -> b.getValue().length() - a.getValue().length()).toList()) {
        if (!r.getValue().isEmpty()) {
          line = line.replace(r.getValue(), "${" + r.getKey() + "}");
        }
      }
      return "stdio: " + line + (env.isEmpty() ? "" : " (env " + new TreeMap<>(env).keySet() + ")")
          + (cwd == null ? "" : " in " + cwd);
    }

    @Override
    public String toString() {
      return "Stdio[" + name + ", " + describe() + "]";
    }

    private static List<String> prepend(String first, List<String> rest) {
      java.util.ArrayList<String> all = new java.util.ArrayList<>();
      all.add(first);
      all.addAll(rest);
      return all;
    }
  }

  /**
   * A server reached over streamable HTTP.
   *
   * @param url the MCP endpoint, e.g. {@code http://127.0.0.1:3001/mcp}
   * @param headers sent with every request (an Authorization header, say)
   */
  record Http(String name, URI url, Map<String, String> headers) implements McpServerSpec {
    public Http {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(url, "url");
      headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    @Override
    public String describe() {
      return "http: " + redacted(url) + (headers.isEmpty() ? "" : " (headers " + new TreeMap<>(headers).keySet() + ")");
    }

    @Override
    public String toString() {
      return "Http[" + name + ", " + describe() + "]";
    }

    /** The URL without user info or query, either of which may carry a secret. */
    public static String redacted(URI url) {
      String port = url.getPort() < 0 ? "" : ":" + url.getPort();
      return url.getScheme() + "://" + url.getHost() + port + (url.getRawPath() == null ? "" : url.getRawPath())
          + (url.getRawQuery() == null ? "" : "?...");
    }
  }
}
