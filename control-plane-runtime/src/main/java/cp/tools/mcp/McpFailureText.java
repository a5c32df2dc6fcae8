package cp.tools.mcp;

import cp.model.RootCause;
import cp.tools.registry.ToolOutput;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * One mapping from what an MCP transport threw to a sentence saying what happened, naming where the
 * server is: a network failure of an HTTP server says so in words ("the server at
 * http://host:3001/mcp closed the connection before it answered"), never as a Java class name
 * ({@code ClosedChannelException}, which has no message) or the HTTP client's jargon ("EOF reached
 * while reading"). Anything else is the innermost message, one line, bounded. Stateless.
 */
final class McpFailureText {
  private McpFailureText() {}

  /** What {@code failure} means for {@code spec}, one line: no stack, no environment, no header value. */
  static String of(Throwable failure, McpServerSpec spec) {
    if (spec instanceof McpServerSpec.Http http) {
      String url = McpServerSpec.Http.redacted(http.url());
      if (RootCause.first(failure, ConnectException.class).isPresent()) {
        return "nothing accepts connections at " + url + " (is the server running?)";
      }
      if (RootCause.first(failure, HttpConnectTimeoutException.class).isPresent()) {
        return "connecting to " + url + " took too long (is the host up and the port open?)";
      }
      if (RootCause.first(failure, UnknownHostException.class).isPresent()) {
        return "the host of " + url + " is not known";
      }
      if (RootCause.first(failure, SSLException.class).isPresent()) {
        return "the TLS handshake with " + url + " failed: "
            + ToolOutput.message(RootCause.first(failure, SSLException.class).get().getMessage());
      }
      if (RootCause.first(failure, HttpTimeoutException.class).isPresent()) {
        return "the server at " + url + " did not answer in time";
      }
      if (closed(failure)) {
        return "the server at " + url + " closed the connection before it answered";
      }
      Throwable innermost = RootCause.innermost(failure);
      if (innermost.getMessage() == null || innermost.getMessage().isBlank()) {
        return "the connection to the server at " + url + " failed";
      }
    }
    return ToolOutput.message(RootCause.innermostMessage(failure));
  }

  /** Whether the connection was closed or reset under the request (the JDK's HTTP client says it many ways). */
  private static boolean closed(Throwable failure) {
    if (RootCause.first(failure, ClosedChannelException.class).isPresent()
        || RootCause.first(failure, EOFException.class).isPresent()) {
      return true;
    }
    return RootCause.chain(failure).anyMatch(t -> {
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      return m.contains("eof reached") || m.contains("connection reset") || m.contains("header parser received no bytes")
          || m.contains("broken pipe") || t instanceof java.io.IOException && m.contains("closed");
    });
  }
}
