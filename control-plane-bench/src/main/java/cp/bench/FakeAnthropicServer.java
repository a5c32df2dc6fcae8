package cp.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import cp.model.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A local stand-in for the Anthropic Messages API ({@code POST /v1/messages}) that answers every
 * request exactly {@code latency} after it arrived, whatever its own work took.
 *
 * <p>It listens on 127.0.0.1 on a free port, one thread per request in flight, so a hundred
 * concurrent sessions are served in parallel as a real provider would serve them. The one
 * {@linkplain #startClosing started closing} closes every connection after its response, as an
 * HTTP/1.0 server or a proxy does, without a {@code Connection: close} header.
 */
public final class FakeAnthropicServer implements AutoCloseable {
  static final String PATH = "/v1/messages";
  static final int HTTP_OK = 200;
  /**
   * The JDK server writes a response's headers and body separately; with Nagle's algorithm on,
   * the body then waits for the client's delayed ACK (about 40 ms on Linux), a latency no real
   * provider adds. Read once, when the server classes load: set before the first server starts.
   */
  static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";
  static final int HTTP_BAD_REQUEST = 400;

  private final HttpServer server;
  private final SocketHttpServer closing;
  private final ExecutorService pool;
  private final Duration latency;
  private final FakeReplies replies;
  private volatile byte[] lastBody = new byte[0];
  /** When each request arrived and its response was written (wall clock, as the ledgers stamp their entries). */
  private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

  /** One request: when it arrived (read whole) and when its response had been written. */
  public record Call(Instant arrived, Instant replied) {}

  private FakeAnthropicServer(HttpServer server, ExecutorService pool, Duration latency, boolean toolRound) {
    this.server = server;
    this.closing = null;
    this.pool = pool;
    this.latency = latency;
    this.replies = new FakeReplies(toolRound);
  }

  private FakeAnthropicServer(Duration latency, boolean toolRound) throws IOException {
    this.server = null;
    this.pool = null;
    this.latency = latency;
    this.replies = new FakeReplies(toolRound);
    this.closing = SocketHttpServer.start(SocketHttpServer.Connections.closing(), (body, n) -> {
      long arrived = System.nanoTime();
      Answer a = answer(body);
      sleepUntil(arrived + latency.toNanos());
      return SocketHttpServer.Reply.json(a.status(), a.body());
    });
  }

  /** Like {@link #start}, but every connection is closed after its response. */
  public static FakeAnthropicServer startClosing(Duration latency, boolean toolRound) throws IOException {
    return new FakeAnthropicServer(latency, toolRound);
  }

  /** Starts a server answering after {@code latency}; with {@code toolRound}, synthesize uses one tool first. */
  public static FakeAnthropicServer start(Duration latency, boolean toolRound) throws IOException {
    System.setProperty(NODELAY_PROPERTY, "true");
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fake-anthropic");
      t.setDaemon(true);
      return t;
    });
    FakeAnthropicServer fake = new FakeAnthropicServer(server, pool, latency, toolRound);
    server.createContext(PATH, fake::handle);
    server.setExecutor(pool);
    server.start();
    return fake;
  }

  /** The base URL to give the provider (ANTHROPIC_BASE_URL). */
  public URI baseUrl() {
    return closing != null ? closing.baseUrl() : URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public URI messagesUrl() {
    return URI.create(baseUrl() + PATH);
  }

  /** The body of the last request received: the raw-call baseline sends the same bytes. */
  public byte[] lastBody() {
    return lastBody.clone();
  }

  /** The requests served so far (standard server only), oldest first. */
  public List<Call> calls() {
    return List.copyOf(calls);
  }

  private void handle(HttpExchange ex) throws IOException {
    long arrived = System.nanoTime();
    try (ex) {
      byte[] body;
      try (InputStream in = ex.getRequestBody()) {
        body = in.readAllBytes();
      }
      Instant arrivedAt = Instant.now();
      Answer a = answer(body);
      sleepUntil(arrived + latency.toNanos());
      ex.getResponseHeaders().add("content-type", "application/json");
      ex.sendResponseHeaders(a.status(), a.body().length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(a.body());
      }
      calls.add(new Call(arrivedAt, Instant.now()));
    }
  }

  private record Answer(int status, byte[] body) {}

  private Answer answer(byte[] body) {
    lastBody = body;
    try {
      JsonNode request = Json.MAPPER.readTree(body);
      return new Answer(HTTP_OK, Json.write(replies.reply(request, body.length)).getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return new Answer(HTTP_BAD_REQUEST, ("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
          + "\"message\":\"bench fake: " + e.getClass().getSimpleName() + "\"}}").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void sleepUntil(long deadlineNanos) {
    long left;
    while ((left = deadlineNanos - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    if (closing != null) {
      closing.close();
      return;
    }
    server.stop(0);
    pool.shutdownNow();
  }
}
