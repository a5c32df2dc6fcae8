package cp.gateway.http;

import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.Secret;

/**
 * What to say about an error response whose body carries no parseable provider message, and
 * about a 2xx body that cannot be mapped to a reply.
 */
public final class ErrorText {
  private ErrorText() {}

  /** A redirect's target, the raw body (the exception truncates it), or "empty body". */
  public static String fallback(HttpReply reply) {
    if (reply.status() >= 300 && reply.status() <= 399) {
      return "redirect to '" + reply.headers().get("location")
          + "' not followed (POST is never redirected): set the base URL to the final address";
    }
    return reply.body().isBlank() ? "(empty body)" : reply.body();
  }

  /** INVALID_RESPONSE for a 2xx body that cannot be mapped: why, then the body, with the key redacted. */
  public static ProviderException invalidResponse(String providerId, HttpReply reply, String why, Secret key) {
    return ProviderException.builder(providerId, ProviderErrorKind.INVALID_RESPONSE)
        .httpStatus(reply.status())
        .message(why + "; body: " + reply.body())
        .redacting(key)
        .build();
  }
}
