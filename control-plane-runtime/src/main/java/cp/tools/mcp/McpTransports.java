package cp.tools.mcp;

import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.util.Map;
import java.util.function.Consumer;

/** The SDK transport for one server spec: our stdio transport, or the SDK's streamable HTTP one with the spec's headers. */
final class McpTransports {
  private McpTransports() {}

  /**
   * @param workerEnv the worker's environment, of which a stdio server gets only {@link MinimalEnvironment#PASSED}
   * @param stderr told each line a stdio server writes to stderr
   */
  static McpClientTransport of(McpServerSpec spec, Map<String, String> workerEnv, McpSettings settings,
      McpJsonMapper mapper, Consumer<String> stderr) {
    if (spec instanceof McpServerSpec.Stdio s) {
      ServerParameters params = ServerParameters.builder(s.command()).args(s.args())
          .env(MinimalEnvironment.of(workerEnv, s.env())).build();
      return new IsolatedStdioTransport(params, mapper, s.cwd(), spec.name(), stderr);
    }
    McpServerSpec.Http h = (McpServerSpec.Http) spec;
    String base = h.url().getScheme() + "://" + h.url().getRawAuthority();
    String endpoint = h.url().getRawPath() == null || h.url().getRawPath().isEmpty() ? "/" : h.url().getRawPath()
        + (h.url().getRawQuery() == null ? "" : "?" + h.url().getRawQuery());
    return HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint).jsonMapper(mapper)
        .connectTimeout(settings.startTimeout())
        .httpRequestCustomizer((b, method, uri, body, context) -> h.headers().forEach(b::header))
        .build();
  }
}
