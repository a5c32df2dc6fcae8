package cp.gateway.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import cp.model.RootCause;
import javax.net.ssl.SSLException;

/**
 * Why a connection to a provider could not be made, in the words an operator acts on ("connection
 * refused", "unknown host"), never a Java class name.
 */
final class ConnectFailure {
  private ConnectFailure() {}

  /** The cause of {@code e}, a failure before any connection existed, in plain words. */
  static String describe(IOException e, Duration connectTimeout) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    Optional<UnknownHostException> unknown = RootCause.first(e, UnknownHostException.class);
    if (unknown.isPresent()) {
      return "unknown host (" + unknown.get().getMessage() + " does not resolve)";
    }
    if (RootCause.first(e, NoRouteToHostException.class).isPresent()) {
      return "no route to host";
    }
    if (RootCause.chain(e).anyMatch(t -> t instanceof ConnectException && t.getMessage() != null
        && t.getMessage().toLowerCase(Locale.ROOT).contains("refused"))) {
      return "connection refused (nothing accepts connections on that port)";
    }
    if (e instanceof InterruptedIOException) {
      return "no connection within the connect timeout of " + connectTimeout.toMillis()
          + " ms (CP_HTTP_CONNECT_TIMEOUT_MS)";
    }
    if (e instanceof SSLException) {
      return "the TLS handshake failed (" + message + ")";
    }
    return message.isBlank() ? "the connection failed" : "the connection failed (" + message + ")";
  }
}
