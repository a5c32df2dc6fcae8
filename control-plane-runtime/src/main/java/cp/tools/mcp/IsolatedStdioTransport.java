package cp.tools.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.nio.file.Path;

/**
 * The SDK's stdio transport, except that the server starts with an empty environment (plus what
 * the parameters carry) in its own working directory: the SDK's process builder starts from a copy
 * of the worker's whole environment. The parameters carry {@link MinimalEnvironment} (the SDK adds
 * PATH, HOME, USER, LOGNAME, SHELL and TERM to them itself).
 */
final class IsolatedStdioTransport extends StdioClientTransport {
  private final Path cwd;

  IsolatedStdioTransport(ServerParameters params, McpJsonMapper mapper, Path cwd) {
    super(params, mapper);
    this.cwd = cwd;
  }

  @Override
  protected ProcessBuilder getProcessBuilder() {
    ProcessBuilder pb = new ProcessBuilder();
    pb.environment().clear();
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    return pb;
  }
}
