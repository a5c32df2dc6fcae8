package cp.gateway.http;

import java.util.Objects;
import okhttp3.Headers;

/**
 * A complete HTTP response: status, headers and the body as text.
 *
 * @param latencyMillis from sending the request to the last body byte
 */
public record HttpReply(int status, Headers headers, String body, long latencyMillis) {
  public HttpReply {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
  }

  public boolean isSuccess() {
    return status >= 200 && status <= 299;
  }
}
