package cp.gateway.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Response;

/**
 * Marks, per call, how far a request got towards the server, and refuses to send a request on a
 * pooled connection the server has already closed.
 *
 * <p>OkHttp invokes network interceptors only once it holds a connection, so a failure before
 * this mark is a {@code CONNECTION} failure (refused, DNS, connect timeout: the request never
 * left), and a timeout after it is a {@code TIMEOUT} (the request may have reached the model).
 * The per-call {@link Mark} travels as a request tag; {@link #events} fills in what only OkHttp's
 * events tell (the request could not be written completely).
 *
 * <p>A connection that already carried an exchange is looked at before the request is written
 * ({@link ChannelSockets#look}). If the server has closed it (an HTTP/1.0 server after every
 * response, a keep-alive server after its idle timeout), nothing is written and the call fails
 * with a {@link StaleConnectionException}: the request never reached the server.
 */
public final class ServerReached implements Interceptor {

  /** What one call got to. */
  public static final class Mark {
    private volatile boolean reached;
    private volatile boolean reused;
    private volatile boolean stale;
    private volatile boolean requestIncomplete;

    /** The call had a live connection (a stale one does not count). */
    public boolean reached() {
      return reached;
    }

    /** The connection had carried an exchange before this call. */
    public boolean reused() {
      return reused;
    }

    /** The pooled connection was found closed by the server before anything was written. */
    public boolean stale() {
      return stale;
    }

    /**
     * Writing the request failed before its last byte left (a reset, a broken pipe; not a write
     * timeout): no server can have acted on a request it never received whole.
     */
    public boolean requestIncomplete() {
      return requestIncomplete;
    }
  }

  /** Connections that have carried an exchange; weak, so closed connections are forgotten. */
  private final Map<Connection, Boolean> used = Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public Response intercept(Chain chain) throws IOException {
    Mark mark = chain.request().tag(Mark.class);
    Connection connection = chain.connection();
    boolean reused = connection != null && used.put(connection, Boolean.TRUE) != null;
    if (reused && !multiplexed(connection)
        && ChannelSockets.look(connection.socket()) == ChannelSockets.Idle.CLOSED_BY_SERVER) {
      if (mark != null) {
        mark.stale = true;
      }
      throw new StaleConnectionException(connection.route().socketAddress().toString());
    }
    if (mark != null) {
      mark.reached = true;
      mark.reused = reused;
    }
    return chain.proceed(chain.request());
  }

  /** HTTP/2 connections are read by OkHttp's own reader thread, which sees a close as it comes. */
  private static boolean multiplexed(Connection connection) {
    Protocol p = connection.protocol();
    return p == Protocol.HTTP_2 || p == Protocol.H2_PRIOR_KNOWLEDGE;
  }

  /** The events that complete each call's {@link Mark}. */
  static EventListener.Factory events() {
    return call -> new EventListener() {
      @Override
      public void requestFailed(Call c, IOException e) {
        Mark mark = c.request().tag(Mark.class);
        if (mark != null && !(e instanceof InterruptedIOException)) {
          mark.requestIncomplete = true;
        }
      }
    };
  }

  /** A pooled connection the server had closed: nothing was sent on it. */
  static final class StaleConnectionException extends IOException {
    private static final long serialVersionUID = 1L;

    StaleConnectionException(String server) {
      super("pooled connection to " + server + " was closed by the server; nothing was sent on it");
    }
  }
}
