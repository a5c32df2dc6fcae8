package cp.tools.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment a stdio MCP server starts with: what a program (node, python, a shell script)
 * needs to run, taken from the worker's environment, plus the server's own {@code env} from its
 * definition. Never the worker's whole environment: it holds the model providers' API keys, the
 * Temporal and ledger credentials, and a server that prints its environment (the reference
 * server's {@code get-env}) would hand them to the model.
 */
public final class MinimalEnvironment {
  /**
   * Passed through when set: where programs are found, the user's home and name (npm, node and
   * Python read them), the locale and time zone, the temporary directory, Windows' system
   * variables, and node's CA bundle (a path, not a secret). Nothing that can carry a credential.
   */
  public static final List<String> PASSED = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
      "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "NODE_EXTRA_CA_CERTS", "SYSTEMROOT", "SystemRoot", "COMSPEC", "PATHEXT",
      "TEMP", "TMP", "APPDATA", "LOCALAPPDATA", "USERPROFILE");

  private MinimalEnvironment() {}

  /** The server's environment: {@link #PASSED} from {@code worker}, then {@code own} (which wins). */
  public static Map<String, String> of(Map<String, String> worker, Map<String, String> own) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String name : PASSED) {
      String v = worker.get(name);
      if (v != null) {
        env.put(name, v);
      }
    }
    env.putAll(own);
    return env;
  }
}
