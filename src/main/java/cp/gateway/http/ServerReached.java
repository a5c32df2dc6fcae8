package cp.gateway.http;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Marks, per call, that a connection to the server was established.
 *
 * <p>OkHttp invokes network interceptors only once it holds a connection, so a failure before
 * this mark is a {@code CONNECTION} failure (refused, DNS, connect timeout: the request never
 * left), and a timeout after it is a {@code TIMEOUT} (the request may have reached the model).
 * The per-call {@link Mark} travels as a request tag.
 */
public final class ServerReached implements Interceptor {

  /** Set once the call has a live connection. */
  public static final class Mark {
    private volatile boolean reached;

    public boolean reached() {
      return reached;
    }
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Mark mark = chain.request().tag(Mark.class);
    if (mark != null) {
      mark.reached = true;
    }
    return chain.proceed(chain.request());
  }
}
