package cp.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.bench.SocketHttpServer;
import cp.bench.SocketHttpServer.Connections;
import cp.bench.SocketHttpServer.Reply;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okio.Buffer;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * Replies are read up to {@code CP_HTTP_MAX_REPLY_BYTES}, from a real local server: a longer 2xx
 * reply fails at once as REPLY_TOO_LARGE (not retryable: it was paid for), naming the limit and
 * its variable, whether its length was announced or not; a longer error reply keeps its status.
 */
class ReplySizeTest {
  static final long LIMIT = 64 * 1024;
  static final byte[] REQUEST = "{}".getBytes(StandardCharsets.UTF_8);

  private static ProviderHttpClient client(java.net.URI base) {
    return new ProviderHttpClient("anthropic", ProviderSettings.anthropic(Secret.of("test-key")).withBaseUrl(base)
        .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(10)).withMaxReplyBytes(LIMIT));
  }

  private static byte[] json(int bytes) {
    byte[] b = new byte[bytes];
    Arrays.fill(b, (byte) 'x');
    b[0] = '"';
    b[bytes - 1] = '"';
    return b;
  }

  @Test
  void replyOverTheLimit_withContentLength_failsNotRetryableNamingTheVariable() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        (body, n) -> Reply.json(200, json(4 * 1024 * 1024)))) {
      ProviderException e = assertThrows(ProviderException.class,
          () -> client(server.baseUrl()).postJson(HttpUrl.get(server.baseUrl() + "/v1/messages"), Headers.of(), REQUEST));

      assertEquals(ProviderErrorKind.REPLY_TOO_LARGE, e.kind(), e::getMessage);
      assertFalse(e.retryable());
      assertEquals(200, e.httpStatus());
      assertTrue(e.getMessage().contains("reply from anthropic was over 65536 bytes (CP_HTTP_MAX_REPLY_BYTES)"),
          e::getMessage);
      assertTrue(e.getMessage().contains("not retried"), e::getMessage);
      assertEquals(1, server.requests(), "sent once");
    }
  }

  @Test
  void replyOverTheLimit_chunked_isCutAtTheLimit() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .chunkedBody(new Buffer().write(json((int) LIMIT * 3)), 8192).build());
      ProviderException e = assertThrows(ProviderException.class,
          () -> client(server.url("/").uri()).postJson(server.url("/v1/messages"), Headers.of(), REQUEST));

      assertEquals(ProviderErrorKind.REPLY_TOO_LARGE, e.kind(), e::getMessage);
    }
  }

  @Test
  void replyOfExactlyTheLimit_isRead() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        (body, n) -> Reply.json(200, json((int) LIMIT)))) {
      HttpReply reply = client(server.baseUrl()).postJson(HttpUrl.get(server.baseUrl() + "/v1/messages"),
          Headers.of(), REQUEST);

      assertEquals(LIMIT, reply.body().length());
    }
  }

  @Test
  void errorReplyOverTheLimit_keepsItsStatus() throws Exception {
    try (SocketHttpServer server = SocketHttpServer.start(Connections.keepAlive(Duration.ofSeconds(30)),
        (body, n) -> Reply.json(502, json((int) LIMIT * 4)))) {
      HttpReply reply = client(server.baseUrl()).postJson(HttpUrl.get(server.baseUrl() + "/v1/messages"),
          Headers.of(), REQUEST);

      assertEquals(502, reply.status());
      assertEquals(LIMIT, reply.body().length(), "cut at the limit");
    }
  }
}
