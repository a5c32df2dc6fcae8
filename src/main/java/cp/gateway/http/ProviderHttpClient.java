package cp.gateway.http;

import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderSettings;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POSTs one JSON body and returns the response, with every automatic retry of OkHttp disabled.
 *
 * <p>Temporal's retry policy owns retries, so this client makes exactly one attempt: no
 * {@code retryOnConnectionFailure}, no redirects (a POST must not turn into a GET somewhere
 * else), and a one-shot request body. The last one matters: OkHttp re-sends a request that got
 * {@code 503} with {@code Retry-After: 0} even when {@code retryOnConnectionFailure} is off,
 * but it never replays a one-shot body (the same guard also covers 408 and 421 follow-ups).
 * I/O failures come back as {@link ProviderException}s of kind {@code CONNECTION} (the request
 * never reached the server) or {@code TIMEOUT} (it did, but no complete answer came in time).
 * Thread-safe; build one per provider and share it.
 */
public final class ProviderHttpClient {
  private static final Logger log = LoggerFactory.getLogger(ProviderHttpClient.class);
  private static final MediaType JSON = MediaType.get("application/json");
  /** Identifies the caller in provider logs without revealing versions of anything. */
  public static final String USER_AGENT = "control-plane";

  private final String providerId;
  private final ProviderSettings settings;
  private final OkHttpClient client;

  public ProviderHttpClient(String providerId, ProviderSettings settings) {
    this.providerId = Objects.requireNonNull(providerId, "providerId");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.client = new OkHttpClient.Builder()
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .followSslRedirects(false)
        .connectTimeout(settings.connectTimeout())
        .readTimeout(settings.readTimeout())
        .writeTimeout(settings.readTimeout())
        .callTimeout(settings.callTimeout())
        .addNetworkInterceptor(new ServerReached())
        .build();
  }

  /** Sends {@code json} once to {@code url}; any status comes back as a reply, I/O failures throw. */
  public HttpReply postJson(HttpUrl url, Headers headers, byte[] json) throws ProviderException {
    ServerReached.Mark mark = new ServerReached.Mark();
    Request request = new Request.Builder()
        .url(url)
        .headers(headers)
        .header("user-agent", USER_AGENT)
        .header("accept", JSON.toString())
        .tag(ServerReached.Mark.class, mark)
        .post(oneShot(json))
        .build();
    String target = describe(url);
    long start = System.nanoTime();
    int status = 0;
    Call call = client.newCall(request);
    InFlightCalls.started(call);
    try (Response response = call.execute()) {
      status = response.code();
      ResponseBody body = response.body();
      String text = body == null ? "" : body.string();
      long millis = elapsedMillis(start);
      log.debug("{} POST {} -> HTTP {} in {} ms ({} chars)", providerId, target, status, millis, text.length());
      return new HttpReply(status, response.headers(), text, millis);
    } catch (IOException e) {
      long millis = elapsedMillis(start);
      log.debug("{} POST {} failed after {} ms: {}", providerId, target, millis, e.getClass().getSimpleName());
      throw ioFailure(e, mark.reached(), status, target, millis);
    } finally {
      InFlightCalls.finished();
    }
  }

  private ProviderException ioFailure(IOException e, boolean reached, int status, String target, long millis) {
    boolean timeout = reached && e instanceof InterruptedIOException;
    String what = timeout
        ? "no complete response from " + target + " within " + millis + " ms (read timeout "
            + settings.readTimeout().toMillis() + " ms, call timeout " + settings.callTimeout().toMillis() + " ms)"
        : (reached ? "connection to " + target + " failed" : "could not connect to " + target);
    return ProviderException.builder(providerId, timeout ? ProviderErrorKind.TIMEOUT : ProviderErrorKind.CONNECTION)
        .httpStatus(status)
        .message(what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage())
        .cause(e)
        .redacting(settings.apiKey())
        .build();
  }

  /** Host and path only: a base URL's query or user-info could carry credentials. */
  private static String describe(HttpUrl url) {
    return url.host() + ":" + url.port() + url.encodedPath();
  }

  private static long elapsedMillis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static RequestBody oneShot(byte[] json) {
    return new RequestBody() {
      @Override
      public MediaType contentType() {
        return JSON;
      }

      @Override
      public long contentLength() {
        return json.length;
      }

      @Override
      public boolean isOneShot() {
        return true;
      }

      @Override
      public void writeTo(BufferedSink sink) throws IOException {
        sink.write(json);
      }
    };
  }
}
