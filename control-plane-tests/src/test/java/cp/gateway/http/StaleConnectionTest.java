package cp.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.bench.SocketHttpServer;
import cp.bench.SocketHttpServer.Connections;
import cp.bench.SocketHttpServer.Reply;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * Servers that close connections, over real sockets: a request that never reached the server
 * because its pooled connection was already closed is sent again at once on a fresh connection;
 * a request that may have reached the server is never sent twice by the transport.
 */
class StaleConnectionTest {
  static final byte[] REQUEST = "{\"q\":\"hello\"}".getBytes(StandardCharsets.UTF_8);
  static final byte[] ANSWER = "{\"a\":\"hi\"}".getBytes(StandardCharsets.UTF_8);
  static final int CALLS = 8;
  /** The keep-alive server's idle timeout, and a pause well beyond it. */
  static final Duration IDLE = Duration.ofMillis(200);
  static final Duration PAUSE = IDLE.multipliedBy(2);

  private static ProviderHttpClient client(java.net.URI base) {
    return new ProviderHttpClient("anthropic", ProviderSettings.anthropic(Secret.of("test-key"))
        .withBaseUrl(base).withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(5)));
  }

  private static HttpUrl url(SocketHttpServer server) {
    return HttpUrl.get(server.baseUrl() + "/v1/messages");
  }

  @Test
  void serverClosingAfterEveryResponse_everyCallSucceedsAndIsSentOnce() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.closing(),
        (body, n) -> Reply.json(200, ANSWER))) {
      ProviderHttpClient http = client(server.baseUrl());
      for (int i = 1; i <= CALLS; i++) {
        HttpReply reply = http.postJson(url(server), Headers.of(), REQUEST);
        assertEquals(200, reply.status(), "call " + i);
        Thread.sleep(20); // the next call finds the pooled connection closed, as a later turn does
      }
      assertEquals(CALLS, server.requests(), "each call reached the server exactly once");
      assertEquals(CALLS, server.accepted(), "a fresh connection for every call after a closed one");
    }
  }

  @Test
  void keepAliveServerDroppingIdleConnections_callsAfterAPauseSucceedOnAFreshConnection() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(IDLE),
        (body, n) -> Reply.json(200, ANSWER))) {
      ProviderHttpClient http = client(server.baseUrl());
      int batches = 3;
      int perBatch = 3;
      for (int b = 0; b < batches; b++) {
        for (int i = 0; i < perBatch; i++) {
          assertEquals(200, http.postJson(url(server), Headers.of(), REQUEST).status(), "batch " + b + " call " + i);
        }
        Thread.sleep(PAUSE.toMillis());
      }
      assertEquals(batches * perBatch, server.requests(), "each call reached the server exactly once");
      assertEquals(batches, server.accepted(), "one connection per batch: reused within it, replaced after the pause");
    }
  }

  @Test
  void serverThatReadTheRequestAndDroppedTheConnection_isNotSentAgainByTheTransport() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        (body, n) -> seen.incrementAndGet() == 2 ? Reply.DROP : Reply.json(200, ANSWER))) {
      ProviderHttpClient http = client(server.baseUrl());
      assertEquals(200, http.postJson(url(server), Headers.of(), REQUEST).status());

      ProviderException e = assertThrows(ProviderException.class,
          () -> http.postJson(url(server), Headers.of(), REQUEST));

      assertEquals(ProviderErrorKind.CONNECTION, e.kind(), e::getMessage);
      assertTrue(e.retryable(), "Temporal's business: a retryable failure");
      assertEquals(2, server.requests(), "the dropped request was received once and not sent again");
      assertEquals(1, server.accepted(), "no second connection was opened for it");
      assertTrue(e.getMessage().contains("may have reached"), e::getMessage);
    }
  }

  @Test
  void serverThatDroppedTheFirstRequestOfAFreshConnection_isNotSentAgainByTheTransport() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        (body, n) -> Reply.DROP)) {
      ProviderException e = assertThrows(ProviderException.class,
          () -> client(server.baseUrl()).postJson(url(server), Headers.of(), REQUEST));

      assertEquals(ProviderErrorKind.CONNECTION, e.kind(), e::getMessage);
      assertEquals(1, server.requests());
      assertEquals(1, server.accepted());
    }
  }

  /**
   * The server takes the first request on a connection, then resets the connection halfway
   * through the body of the second: the request was never complete, so no server can have acted
   * on it, and the transport sends it again on a fresh connection.
   */
  @Test
  void requestCutOffMidBodyOnAReusedConnection_isSentAgainOnAFreshConnection() throws Exception {
    byte[] big = new byte[8 * 1024 * 1024];
    java.util.Arrays.fill(big, (byte) 'x');
    List<Integer> complete = new ArrayList<>();
    AtomicInteger connections = new AtomicInteger();
    try (ServerSocket ss = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> {
        try {
          while (true) {
            Socket s = ss.accept();
            int c = connections.incrementAndGet();
            new Thread(() -> cutOffSecondRequest(s, c, complete)).start();
          }
        } catch (IOException e) {
          // closed
        }
      });
      server.setDaemon(true);
      server.start();
      java.net.URI base = java.net.URI.create("http://127.0.0.1:" + ss.getLocalPort());
      ProviderHttpClient http = client(base);
      HttpUrl url = HttpUrl.get(base + "/v1/messages");

      assertEquals(200, http.postJson(url, Headers.of(), REQUEST).status());
      assertEquals(200, http.postJson(url, Headers.of(), big).status());

      assertEquals(2, connections.get(), "the cut-off request was sent again on a second connection");
      synchronized (complete) {
        assertEquals(List.of(REQUEST.length, big.length), complete, "complete requests the server read");
      }
    }
  }

  /** Answers every request, except that on connection 1 it resets the connection inside request 2's body. */
  private static void cutOffSecondRequest(Socket s, int connection, List<Integer> complete) {
    try (s) {
      InputStream in = s.getInputStream();
      for (int n = 1; ; n++) {
        long length = readHead(in);
        if (length < 0) {
          return;
        }
        if (connection == 1 && n == 2) {
          in.readNBytes((int) Math.min(length, 64 * 1024));
          s.setSoLinger(true, 0); // close with a reset, the request unread
          return;
        }
        byte[] body = in.readNBytes((int) length);
        synchronized (complete) {
          complete.add(body.length);
        }
        s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
            + ANSWER.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().write(ANSWER);
        s.getOutputStream().flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  private static long readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int b;
    while ((b = in.read()) >= 0) {
      head.append((char) b);
      if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
        for (String line : head.toString().split("\r\n")) {
          if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
            return Long.parseLong(line.substring("content-length:".length()).trim());
          }
        }
        return 0;
      }
    }
    return -1;
  }

  @Test
  void healthyKeepAliveServer_oneConnectionServesEveryCall() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        (body, n) -> Reply.json(200, ANSWER))) {
      ProviderHttpClient http = client(server.baseUrl());
      for (int i = 0; i < CALLS; i++) {
        assertEquals(200, http.postJson(url(server), Headers.of(), REQUEST).status());
      }
      assertEquals(1, server.accepted(), "a healthy keep-alive connection is reused for every call");
      assertEquals(CALLS, server.requests());
    }
  }
}
