package cp.worker;

import cp.observability.SecretMasker;
import cp.tools.mcp.McpServerSpec;
import java.util.List;
import java.util.Map;

/**
 * Registers the secrets a worker hands its MCP servers (issue 20 §1: the masker is open for them):
 * a stdio server's environment values and an HTTP server's header values whose names look secret
 * ({@link SecretMasker#looksSecretName}: {@code GITHUB_TOKEN}, {@code Authorization},
 * {@code X-Api-Key}). Values are as resolved from {@code ${NAME}} references, so a key a definition
 * takes from any variable is masked too; and every value a stdio server takes from a {@code ${NAME}}
 * reference whose variable is named like a secret, wherever it is written (in an argument too:
 * {@code --url=https://user:${SVC_PASS}@db}). Other values ({@code DEBUG=1}, {@code Accept}, a
 * script's path in {@code ${SERVER_JS}}) are not secrets and are left alone; the command line shows
 * every reference, not its value ({@link McpServerSpec#describe()}).
 */
public final class ServerSecrets {
  private ServerSecrets() {}

  /** Registers on {@code masker}; returns how many values were registered (short ones are ignored by the masker). */
  public static int register(SecretMasker masker, List<McpServerSpec> servers) {
    int before = masker.registered();
    for (McpServerSpec s : servers) {
      Map<String, String> values = s instanceof McpServerSpec.Stdio io ? io.env()
          : s instanceof McpServerSpec.Http http ? http.headers() : Map.of();
      values.forEach((name, value) -> {
        if (SecretMasker.looksSecretName(name)) {
          masker.register("mcp " + s.name() + " " + name, value.startsWith("Bearer ") ? value.substring(7) : value);
        }
      });
      if (s instanceof McpServerSpec.Stdio io) {
        // Only secret-looking names: the masker hides every 8-character fragment of what it holds, so a
        // path in ${SERVER_JS} would mask "everything/" in tool names. The command line shows every reference.
        io.references().forEach((name, value) -> {
          if (SecretMasker.looksSecretName(name)) {
            masker.register("mcp " + s.name() + " ${" + name + "}", value);
          }
        });
      }
    }
    return masker.registered() - before;
  }
}
