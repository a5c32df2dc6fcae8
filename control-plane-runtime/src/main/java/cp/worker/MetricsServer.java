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
 * {@code /metrics} for Prometheus ({@code cpctl worker --metrics-port}): the registry's text
 * exposition on the JDK's own HTTP server, one thread, GET and HEAD only. Anything else is 404
 * (another path) or 405 (another method).
 */
public final class MetricsServer implements AutoCloseable {
  public static final String PATH = "/metrics";
  /** The Prometheus text format's content type. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Serves {@code registry} on {@code address}.
   *
   * @throws UncheckedIOException when the address cannot be listened on
   */
  public static MetricsServer start(InetSocketAddress address, PrometheusMeterRegistry registry) {
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
    }
    server.createContext("/", exchange -> {
      try (exchange) {
        if (!exchange.getRequestURI().getPath().equals(PATH)) {
          reply(exchange, 404, "not found: the metrics are at " + PATH + "\n");
        } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
          exchange.getResponseHeaders().set("Allow", "GET, HEAD");
          reply(exchange, 405, "method not allowed\n");
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
