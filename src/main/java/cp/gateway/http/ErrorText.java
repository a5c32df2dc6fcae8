package cp.gateway.http;

/** What to say about an error response whose body carries no parseable provider message. */
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
}
