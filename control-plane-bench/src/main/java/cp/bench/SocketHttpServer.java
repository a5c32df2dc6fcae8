package cp.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.x server on a plain {@link ServerSocket} whose connection handling is chosen,
 * for the connection behaviours real servers have and the JDK's {@code HttpServer} cannot show:
 *
 * <ul>
 *   <li>{@link Connections#closing()}: an HTTP/1.0 server (Python's
 *       {@code http.server}, many proxies): every response ends with the server closing the
 *       connection, without a {@code Connection: close} header;
 *   <li>{@link Connections#keepAlive(Duration)}: a keep-alive server that closes a connection
 *       idle for longer than a timeout (uvicorn, which vLLM runs on, closes after 5 s);
 *   <li>a {@link Handler} that answers {@link Reply#DROP}: the server reads the whole request
 *       and closes the connection without answering (a crash, a proxy giving up).
 * </ul>
 *
 * <p>It listens on 127.0.0.1 on a free port, one thread per connection. Only what LLM APIs need
 * is understood: a request line, headers and a {@code Content-Length} body. Counts of accepted
 * connections and of complete requests let tests say exactly what reached the server.
 */
public final class SocketHttpServer implements AutoCloseable {
  /** Longest request head accepted; far above any real request's headers. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** What the server does with a connection after a response. */
  public record Connections(boolean closeAfterResponse, Duration idleTimeout) {
    public Connections {
      Objects.requireNonNull(idleTimeout, "idleTimeout");
    }

    /** Closes every connection right after its response, HTTP/1.0 style. */
    public static Connections closing() {
      return new Connections(true, Duration.ZERO);
    }

    /** Keeps connections open, closing one that stays idle longer than {@code idle}. */
    public static Connections keepAlive(Duration idle) {
      if (idle.isNegative() || idle.isZero()) {
        throw new IllegalArgumentException("idle timeout must be positive, was " + idle);
      }
      return new Connections(false, idle);
    }
  }

  /** A response: status, content type and body; {@link #DROP} closes the connection instead. */
  public record Reply(int status, String contentType, byte[] body) {
    /** Read the request, then close the connection without a response. */
    public static final Reply DROP = new Reply(0, "", new byte[0]);

    public static Reply json(int status, byte[] body) {
      return new Reply(status, "application/json", body);
    }
  }

  /** Answers one complete request; {@code connectionRequest} is 1 for a connection's first request. */
  @FunctionalInterface
  public interface Handler {
    Reply handle(byte[] body, int connectionRequest) throws IOException;
  }

  private final ServerSocket socket;
  private final ExecutorService pool;
  private final Connections connections;
  private final Handler handler;
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private SocketHttpServer(ServerSocket socket, Connections connections, Handler handler) {
    this.socket = socket;
    this.connections = connections;
    this.handler = handler;
    this.pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "socket-http-server");
      t.setDaemon(true);
      return t;
    });
  }

  public static SocketHttpServer start(Connections connections, Handler handler) throws IOException {
    ServerSocket s = new ServerSocket(0, 0, InetAddress.getLoopbackAddress());
    SocketHttpServer server = new SocketHttpServer(s, connections, handler);
    server.pool.execute(server::acceptLoop);
    return server;
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort());
  }

  /** Connections accepted so far. */
  public int accepted() {
    return accepted.get();
  }

  /** Complete requests (head and whole body) read so far, answered or dropped. */
  public int requests() {
    return requests.get();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket s = socket.accept();
        accepted.incrementAndGet();
        open.add(s);
        pool.execute(() -> serve(s));
      } catch (IOException e) {
        if (!closed) {
          System.err.println("SocketHttpServer: accept failed: " + e);
        }
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      for (int n = 1; !closed; n++) {
        s.setSoTimeout(connections.closeAfterResponse() ? 0 : (int) connections.idleTimeout().toMillis());
        byte[] body;
        try {
          body = readRequest(in);
        } catch (SocketTimeoutException idle) {
          return; // idle too long: close, as a keep-alive server does
        }
        if (body == null) {
          return; // the client closed the connection
        }
        requests.incrementAndGet();
        Reply reply = handler.handle(body, n);
        if (reply == Reply.DROP) {
          return;
        }
        String version = connections.closeAfterResponse() ? "HTTP/1.0" : "HTTP/1.1";
        String head = version + " " + reply.status() + " " + reason(reply.status()) + "\r\n"
            + "Content-Type: " + reply.contentType() + "\r\n"
            + "Content-Length: " + reply.body().length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(reply.body());
        out.flush();
        if (connections.closeAfterResponse()) {
          return;
        }
      }
    } catch (IOException e) {
      // the client went away mid-request or mid-response: nothing to answer
    } finally {
      open.remove(s);
    }
  }

  /** The body of the next request, or null when the connection closed before one began. */
  private static byte[] readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new IOException("connection closed inside a request head");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
      if (head.size() > MAX_HEAD_BYTES) {
        throw new IOException("request head over " + MAX_HEAD_BYTES + " bytes");
      }
    }
    long length = 0;
    for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-length")) {
        length = Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    byte[] body = in.readNBytes((int) length);
    if (body.length < length) {
      throw new IOException("connection closed inside a request body");
    }
    return body;
  }

  private static String reason(int status) {
    return status >= 200 && status <= 299 ? "OK" : "Error";
  }

  @Override
  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    pool.shutdownNow();
  }
}
