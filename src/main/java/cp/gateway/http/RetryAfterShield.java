package cp.gateway.http;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Stops OkHttp from silently repeating a request that got {@code 503} with {@code Retry-After: 0}.
 *
 * <p>OkHttp's follow-up logic re-sends such a request immediately, even with
 * {@code retryOnConnectionFailure(false)}; for us that would be a second, billed model call that
 * Temporal never sees. As a network interceptor this runs below that logic and renames the
 * header to {@link RetryAfter#SHIELDED}, where {@link RetryAfter} still finds it.
 */
public final class RetryAfterShield implements Interceptor {
  @Override
  public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    String value = response.header(RetryAfter.RETRY_AFTER);
    if (value == null) {
      return response;
    }
    return response.newBuilder()
        .removeHeader(RetryAfter.RETRY_AFTER)
        .header(RetryAfter.SHIELDED, value)
        .build();
  }
}
