package cp.worker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The worker's operations endpoints on one port ({@code cpctl worker --metrics-port} or
 * {@code CP_METRICS_PORT}), on the JDK's own HTTP server, one thread, GET and HEAD only:
 * {@code /metrics} (the registry's Prometheus text exposition), {@code /healthz} (200 while the
 * process serves HTTP at all) and {@code /readyz} (200 when {@link Readiness} says the worker can do
 * work, else 503 with one line per check). Anything else is 404 (another path) or 405 (another
 * method). No endpoint touches Temporal or a database while it answers.
 */
public final class MetricsServer implements AutoCloseable {
  public static final String PATH = "/metrics";
  public static final String HEALTH = "/healthz";
  public static final String READY = "/readyz";
  /** The Prometheus text format's content type. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  static final String TEXT = "text/plain; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Serves {@code registry} and the readiness {@code readiness} reports on {@code address}.
   *
   * @throws UncheckedIOException when the address cannot be listened on
   */
  public static MetricsServer start(InetSocketAddress address, PrometheusMeterRegistry registry,
      java.util.function.Supplier<Readiness.Status> readiness) {
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
    }
    server.createContext("/", exchange -> {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        if (!path.equals(PATH) && !path.equals(HEALTH) && !path.equals(READY)) {
          reply(exchange, 404, "not found: " + PATH + ", " + HEALTH + " and " + READY + " are served here\n");
        } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
          exchange.getResponseHeaders().set("Allow", "GET, HEAD");
          reply(exchange, 405, "method not allowed\n");
        } else if (path.equals(HEALTH)) {
          exchange.getResponseHeaders().set("Content-Type", TEXT);
          reply(exchange, 200, "ok\n");
        } else if (path.equals(READY)) {
          Readiness.Status s = readiness.get();
          exchange.getResponseHeaders().set("Content-Type", TEXT);
          exchange.getResponseHeaders().set("Cache-Control", "no-store");
          reply(exchange, s.ready() ? 200 : 503, s.text());
        } else {
          exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
          reply(exchange, 200, registry.scrape());
        }
      }
    });
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "cp-metrics-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.start();
    return new MetricsServer(server, executor);
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** The address actually bound (the port, when 0 was asked for). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
