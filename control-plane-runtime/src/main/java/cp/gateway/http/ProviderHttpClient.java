package cp.gateway.http;

import cp.gateway.ProviderEnvironment;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderSettings;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSources;
import okio.BufferedSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POSTs one JSON body and returns the response, with every automatic retry of OkHttp disabled.
 *
 * <p>Temporal's retry policy owns retries of anything that may have reached the server, so this
 * client never sends a request twice that a server could have acted on: no
 * {@code retryOnConnectionFailure}, no redirects (a POST must not turn into a GET somewhere
 * else), and a one-shot request body. The last one matters: OkHttp re-sends a request that got
 * {@code 503} with {@code Retry-After: 0} even when {@code retryOnConnectionFailure} is off,
 * but it never replays a one-shot body (the same guard also covers 408 and 421 follow-ups).
 *
 * <p>One case is the transport's own: a request that never reached the server because the
 * pooled connection it was given was dead. Servers close connections all the time (an HTTP/1.0
 * server after every response, uvicorn after 5 s idle, proxies), and the next call on such a
 * connection used to fail and cost a Temporal retry and an error EXCHANGE. Such a request is
 * sent again at once on a fresh connection (the idle pool is emptied first) when either
 *
 * <ul>
 *   <li>the connection, looked at before anything was written, had already been closed by the
 *       server ({@link ServerReached.Mark#stale()}): the server closed it before our request
 *       existed, so it cannot have received it; or
 *   <li>writing the request on a reused connection failed before its last byte left
 *       ({@link ServerReached.Mark#requestIncomplete()}), e.g. the server's reset arrived
 *       mid-body: a server cannot act on a request it never received whole.
 * </ul>
 *
 * <p>What is not retried here: a request written completely whose connection then broke before
 * a response came, even on a reused connection. The server may have read it and then closed
 * (a crash, a proxy giving up) and a model may have run on it; only the server knows. That also
 * covers the one race left: a keep-alive server closing a connection at the very moment our
 * request travels on it. It stays a retryable {@code CONNECTION} failure, recorded and retried
 * by Temporal as before. HTTP/2 connections are not looked at (OkHttp's reader sees their close
 * as it comes), nor TLS ones, whose socket has no channel to look through without blocking:
 * for those OkHttp checks a connection idle 10 s or more itself.
 *
 * <p>Replies are read up to {@link ProviderSettings#maxReplyBytes()}; a longer 2xx reply fails
 * as {@code REPLY_TOO_LARGE} without being read further, a longer error reply is cut at the
 * limit (only its first few hundred characters are kept anyway). I/O failures come back as
 * {@link ProviderException}s of kind {@code CONNECTION} or {@code TIMEOUT} (it reached the
 * server, but no complete answer came in time). Thread-safe; build one per provider and share it.
 */
public final class ProviderHttpClient {
  private static final Logger log = LoggerFactory.getLogger(ProviderHttpClient.class);
  private static final MediaType JSON = MediaType.get("application/json");
  /** The media type of a server-sent event stream. */
  static final String EVENT_STREAM = "text/event-stream";
  /** Identifies the caller in provider logs without revealing versions of anything. */
  public static final String USER_AGENT = "control-plane";
  /** The variable that sets {@link ProviderSettings#maxReplyBytes()}, named in the failure. */
  static final String MAX_REPLY_VARIABLE = ProviderEnvironment.CP_HTTP_MAX_REPLY_BYTES;
  /**
   * Idle connections OkHttp keeps per client (its own default, kept). It also bounds the
   * transport's attempts: every idle connection may be dead when a server closed them all, and
   * the pool is emptied before each new attempt, so a dead one can come back only from a call
   * that finished meanwhile.
   */
  static final int MAX_IDLE_CONNECTIONS = 5;
  /** OkHttp's default: the server's own idle timeout, seen by the look before each use, decides. */
  static final Duration KEEP_ALIVE = Duration.ofMinutes(5);
  /** One attempt, plus one for each dead pooled connection the call may be handed. */
  static final int MAX_SEND_ATTEMPTS = MAX_IDLE_CONNECTIONS + 1;

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
        .connectionPool(new ConnectionPool(MAX_IDLE_CONNECTIONS, KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS))
        .socketFactory(new ChannelSockets())
        .eventListenerFactory(ServerReached.events())
        .addNetworkInterceptor(new ServerReached())
        .build();
  }

  /**
   * Sends {@code json} to {@code url}: once, or again on a fresh connection when the request
   * never reached the server (see the class comment). Any status comes back as a reply; I/O
   * failures and a 2xx reply over the size limit throw.
   */
  public HttpReply postJson(HttpUrl url, Headers headers, byte[] json) throws ProviderException {
    return post(url, headers, json, JSON.toString(), (response, target, start, attempt) -> {
      String text = body(response, target);
      long millis = elapsedMillis(start);
      log.debug("{} POST {} -> HTTP {} in {} ms ({} chars, attempt {})", providerId, target, response.code(), millis,
          text.length(), attempt);
      return new HttpReply(response.code(), response.headers(), text, millis);
    });
  }

  /** What a call makes of its response, once it has one. */
  @FunctionalInterface
  private interface ResponseReader<T> {
    T read(Response response, String target, long startNanos, int attempt)
        throws IOException, ProviderException, SseReading.Failed;
  }

  /**
   * Sends {@code json}, once or again on a fresh connection when it never reached the server (see
   * the class comment), and reads the response with {@code reader}; I/O failures throw.
   */
  private <T> T post(HttpUrl url, Headers headers, byte[] json, String accept, ResponseReader<T> reader)
      throws ProviderException {
    String target = describe(url);
    long start = System.nanoTime();
    long budgetNanos = settings.callTimeout().toNanos();
    for (int attempt = 1; ; attempt++) {
      ServerReached.Mark mark = new ServerReached.Mark();
      Request request = new Request.Builder()
          .url(url)
          .headers(headers)
          .header("user-agent", USER_AGENT)
          .header("accept", accept)
          .tag(ServerReached.Mark.class, mark)
          .post(oneShot(json))
          .build();
      Call call = client.newCall(request);
      InFlightCalls.started(call); // a cancelled activity cancels it (InFlightCalls)
      long left = budgetNanos - (System.nanoTime() - start);
      call.timeout().timeout(Math.max(1, left), TimeUnit.NANOSECONDS); // the retry shares the call's budget
      int status = 0;
      try (Response response = call.execute()) {
        status = response.code();
        return reader.read(response, target, start, attempt);
      } catch (SseReading.Failed e) {
        throw streamFailure(e, mark, status, target, start, call.isCanceled());
      } catch (IOException e) {
        long millis = elapsedMillis(start);
        boolean neverReached = mark.stale() || (mark.reused() && mark.requestIncomplete());
        boolean timeLeft = budgetNanos - (System.nanoTime() - start) > 0;
        if (neverReached && !call.isCanceled() && attempt < MAX_SEND_ATTEMPTS && timeLeft) {
          log.debug("{} POST {}: {} on attempt {}; the request never reached the server, sending it again on a"
              + " fresh connection", providerId, target, mark.stale() ? "stale pooled connection"
              : "request cut off on a reused connection", attempt);
          client.connectionPool().evictAll();
          continue;
        }
        log.debug("{} POST {} failed after {} ms: {}", providerId, target, millis, e.getClass().getSimpleName());
        throw ioFailure(e, mark, status, target, millis, call.isCanceled());
      } finally {
        InFlightCalls.finished(call);
      }
    }
  }

  /**
   * Sends {@code json} asking for server-sent events and reads the stream into {@code events} as
   * it arrives (issue 24): empty when the stream came whole (its last event seen), or the reply
   * when the server answered without streaming (an error status, or a JSON body from a server that
   * cannot stream: read as a one-shot reply). Sent like {@link #postJson}, never twice once it may
   * have reached the server. A stream with no event within the read timeout fails as
   * {@code TIMEOUT} (a hung call); one that breaks or ends before its last event as
   * {@code CONNECTION} (retried); a stream over the reply size limit as {@code REPLY_TOO_LARGE}.
   * The whole stream stays within the call timeout, as a one-shot reply does.
   */
  public Optional<HttpReply> postStreaming(HttpUrl url, Headers headers, byte[] json, SseEvents events)
      throws ProviderException {
    return post(url, headers, json, EVENT_STREAM + ", " + JSON, (response, target, start, attempt) -> {
      MediaType type = response.body().contentType();
      if (!response.isSuccessful() || type == null || !EVENT_STREAM.equals(type.type() + "/" + type.subtype())) {
        return Optional.of(new HttpReply(response.code(), response.headers(), body(response, target),
            elapsedMillis(start)));
      }
      SseReading reading = new SseReading(events, settings.maxReplyBytes());
      EventSources.processResponse(response, reading);
      reading.rethrow();
      if (!events.complete()) {
        throw ProviderException.builder(providerId, ProviderErrorKind.CONNECTION).httpStatus(response.code())
            .message("the event stream from " + target + " ended after " + reading.count() + " events without its"
                + " last one, " + elapsedMillis(start) + " ms in; it may have been answered in part")
            .redacting(settings.apiKey()).build();
      }
      log.debug("{} POST {} -> streamed {} events in {} ms", providerId, target, reading.count(), elapsedMillis(start));
      return Optional.empty();
    });
  }

  /** A stream that failed after it opened: the API's own error, the size limit, or an I/O failure. */
  private ProviderException streamFailure(SseReading.Failed e, ServerReached.Mark mark, int status, String target,
      long start, boolean canceled) {
    if (e.getCause() instanceof ProviderException p) {
      return p;
    }
    if (e.getCause() instanceof SseReading.TooLarge) {
      return ProviderException.builder(providerId, ProviderErrorKind.REPLY_TOO_LARGE).httpStatus(status)
          .message("event stream from " + target + " was over " + settings.maxReplyBytes() + " bytes ("
              + MAX_REPLY_VARIABLE + "); not read further and not retried")
          .redacting(settings.apiKey()).build();
    }
    IOException io = e.getCause() instanceof IOException x ? x : new IOException(e.getCause());
    return ioFailure(io, mark, status, target, elapsedMillis(start), canceled);
  }

  /** The body as text, read up to the size limit. */
  private String body(Response response, String target) throws IOException, ProviderException {
    ResponseBody body = response.body();
    long max = settings.maxReplyBytes();
    boolean over = body.contentLength() > max || body.source().request(max + 1);
    if (!over) {
      return body.string();
    }
    if (!response.isSuccessful()) {
      return body.source().readString(max, StandardCharsets.UTF_8); // an error body: its start is enough
    }
    throw ProviderException.builder(providerId, ProviderErrorKind.REPLY_TOO_LARGE)
        .httpStatus(response.code())
        .message("reply from " + providerId + " was over " + max + " bytes (" + MAX_REPLY_VARIABLE + "); "
            + (body.contentLength() > max ? "Content-Length " + body.contentLength() + ", " : "")
            + "not read further and not retried: a retry would pay for the same reply again. It came from "
            + target + "; lower the contract's max_tokens, or raise " + MAX_REPLY_VARIABLE + " (at most "
            + ProviderSettings.MAX_REPLY_BYTES_CEILING + ", what workflow history can carry)")
        .redacting(settings.apiKey())
        .build();
  }

  private ProviderException ioFailure(IOException e, ServerReached.Mark mark, int status, String target,
      long millis, boolean canceled) {
    boolean reached = mark.reached();
    boolean timeout = reached && e instanceof InterruptedIOException;
    if (!reached && !mark.stale() && !canceled) {
      return unreachable(e, target, millis);
    }
    String what;
    if (timeout) {
      what = "no complete response from " + target + " within " + millis + " ms (read timeout "
          + settings.readTimeout().toMillis() + " ms, call timeout " + settings.callTimeout().toMillis() + " ms)";
    } else if (mark.stale()) {
      what = "every pooled connection to " + target + " was closed by the server; nothing was sent";
    } else if (reached && !mark.requestIncomplete()) {
      what = "connection to " + target + " broke after the request was sent; it may have reached the server";
    } else {
      what = reached ? "connection to " + target + " broke before the whole request was sent"
          : "could not connect to " + target;
    }
    return ProviderException.builder(providerId, timeout ? ProviderErrorKind.TIMEOUT : ProviderErrorKind.CONNECTION)
        .httpStatus(status)
        .message(what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage())
        .cause(e)
        .redacting(settings.apiKey())
        .build();
  }

  /**
   * No connection could be made, so nothing was sent: which endpoint (host, port, path; never a
   * key), why in plain words, and what to check. Worth only {@link ProviderSettings#connectAttempts()}
   * attempts in all.
   */
  private ProviderException unreachable(IOException e, String target, long millis) {
    return ProviderException.builder(providerId, ProviderErrorKind.PROVIDER_UNREACHABLE)
        .message(providerId + " endpoint " + target + " cannot be reached: " + ConnectFailure.describe(e,
            settings.connectTimeout()) + " after " + millis + " ms; nothing was sent. Check that the server runs and "
            + "that the base URL (" + baseUrlOrigin() + ") names it")
        .cause(e)
        .attemptLimit(settings.connectAttempts())
        .redacting(settings.apiKey())
        .build();
  }

  /** Where the base URL came from: the settings' origin when given, else the provider type's variable. */
  private String baseUrlOrigin() {
    return settings.baseUrlOrigin() != null ? settings.baseUrlOrigin()
        : providerId.toUpperCase(java.util.Locale.ROOT) + "_BASE_URL";
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
