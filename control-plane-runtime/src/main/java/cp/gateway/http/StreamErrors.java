package cp.gateway.http;

import cp.gateway.ProviderException;

/** How an event stream's failures read: as the one-shot reply with the same error would (issue 24). */
public interface StreamErrors {
  /** An error the stream reported: the failure a one-shot reply with {@code status} and {@code body} is. */
  ProviderException error(int status, String body);

  /** A stream that cannot be read ({@code INVALID_RESPONSE}), saying {@code why}. */
  ProviderException invalid(String why);
}
