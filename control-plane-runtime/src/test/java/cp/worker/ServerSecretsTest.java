package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.observability.SecretMasker;
import cp.tools.mcp.McpServerSpec;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 20 §1: an MCP server's secret env and header values are masked like the worker's own keys. */
class ServerSecretsTest {
  @Test
  void secretLookingEnvAndHeaderValues_areRegistered_otherValuesAreNot() {
    SecretMasker m = new SecretMasker();
    int n = ServerSecrets.register(m, List.of(
        new McpServerSpec.Stdio("gh", "node", List.of("server.js"),
            Map.of("GITHUB_TOKEN", "tok-4f9a8b7c6d5e4f3a2b1c", "LOG_PATH", "/var/log/mcp-server-log"), null),
        new McpServerSpec.Http("search", URI.create("http://127.0.0.1:3001/mcp"),
            Map.of("Authorization", "Bearer abcdefghij0123456789", "Accept", "application/json-seq"))));
    assertEquals(2, n);
    assertEquals("[masked:mcp gh GITHUB_TOKEN] [masked:mcp search Authorization] /var/log/mcp-server-log application/json-seq",
        m.mask("tok-4f9a8b7c6d5e4f3a2b1c abcdefghij0123456789 /var/log/mcp-server-log application/json-seq"));
  }

  @Test
  void aSecretNamedReference_isRegistered_everyReferenceIsShownAsSuch_andAPathIsNotMasked() {
    SecretMasker m = new SecretMasker();
    McpServerSpec.Stdio s = new McpServerSpec.Stdio("svc", "node", List.of("/opt/srv/everything/index.js",
        "--url=https://user:pw_444455556666@db"), Map.of(), null,
        Map.of("SVC_PASS", "pw_444455556666", "SERVER_JS", "/opt/srv/everything/index.js"));
    assertEquals(1, ServerSecrets.register(m, List.of(s)), "the password, not the script's path");
    assertEquals("[masked:mcp svc ${SVC_PASS}] everything/echo", m.mask("pw_444455556666 everything/echo"));
    assertEquals("stdio: node ${SERVER_JS} --url=https://user:${SVC_PASS}@db", s.describe());
  }
}
