package cp.worker.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The codec server over real HTTP, as the Temporal Web UI and CLI call it. */
class CodecServerTest {
  static final String UI = "http://localhost:8080";
  static final ObjectMapper JSON = new ObjectMapper();

  private final PayloadKey key = AesGcmPayloadCodecTest.randomKey();
  private final PayloadKey otherKey = AesGcmPayloadCodecTest.randomKey();
  private final HttpClient http = HttpClient.newHttpClient();
  private CodecServer server;
  private CodecServer otherServer;

  @BeforeEach
  void start() throws Exception {
    server = CodecServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(UI), new AesGcmPayloadCodec(key));
    otherServer = CodecServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(UI),
        new AesGcmPayloadCodec(otherKey));
  }

  @AfterEach
  void stop() {
    server.close();
    otherServer.close();
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(JsonNode base64) {
    return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.UTF_8);
  }

  private HttpResponse<String> post(CodecServer s, String path, String body, String origin) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
        .header("Content-Type", "application/json").header("X-Namespace", "default")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (origin != null) {
      b.header("Origin", origin);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static final String PLAIN = "{\"payloads\":[{\"metadata\":{\"encoding\":\"" + b64("json/plain") + "\"},"
      + "\"data\":\"" + b64("{\"user_message\":\"top secret\"}") + "\"},"
      + "{\"metadata\":{\"encoding\":\"" + b64("binary/null") + "\"}}]}";

  @Test
  void encodeThenDecode_overHttp_returnsTheOriginalPayloads() throws Exception {
    HttpResponse<String> enc = post(server, "/encode", PLAIN, null);
    assertEquals(200, enc.statusCode(), enc.body());
    assertEquals("application/json", enc.headers().firstValue("Content-Type").orElse(""));
    JsonNode sealed = JSON.readTree(enc.body()).get("payloads");
    assertEquals(2, sealed.size());
    for (JsonNode p : sealed) {
      assertEquals("binary/encrypted", text(p.get("metadata").get("encoding")));
      assertEquals(key.id(), text(p.get("metadata").get("encryption-key-id")));
      assertFalse(text(p.get("data")).contains("top secret"));
    }

    HttpResponse<String> dec = post(server, "/decode", enc.body(), UI);
    assertEquals(200, dec.statusCode(), dec.body());
    assertEquals(JSON.readTree(PLAIN), JSON.readTree(dec.body()));
    assertEquals(UI, dec.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
  }

  @Test
  void decodeWithADifferentKey_isA422NamingBothKeyIds() throws Exception {
    String sealed = post(server, "/encode", PLAIN, null).body();

    HttpResponse<String> r = post(otherServer, "/decode", sealed, null);

    assertEquals(422, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    assertEquals("cannot decode: payload is encrypted with key id " + key.id() + " but CP_PAYLOAD_KEY has key id "
        + otherKey.id() + ": set CP_PAYLOAD_KEY to the key of the workers that wrote this history", r.body().strip());
  }

  @Test
  void decode_passesPlainPayloadsThrough() throws Exception {
    HttpResponse<String> r = post(server, "/decode", PLAIN, null);
    assertEquals(200, r.statusCode());
    assertEquals("{\"user_message\":\"top secret\"}", text(JSON.readTree(r.body()).get("payloads").get(0).get("data")));
  }

  @Test
  void badJson_isA400SayingWhatIsWrong() throws Exception {
    HttpResponse<String> r = post(server, "/decode", "{\"payloads\": [", null);
    assertEquals(400, r.statusCode());
    assertTrue(r.body().startsWith("request body is not {\"payloads\":[") && r.body().contains("invalid JSON"),
        r.body());

    r = post(server, "/encode", "{\"payloads\":[{\"data\":\"%%%\"}]}", null);
    assertEquals(400, r.statusCode());
    assertTrue(r.body().contains("payloads[0].data is not base64"), r.body());

    r = post(server, "/encode", "[1,2]", null);
    assertEquals(400, r.statusCode());
    assertTrue(r.body().contains("expected a JSON object"), r.body());
  }

  @Test
  void preflightFromTheUiOrigin_allowsPostWithContentTypeAndNamespace() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + "/decode")).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", UI).header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type,x-namespace").build(), HttpResponse.BodyHandlers.ofString());

    assertEquals(204, r.statusCode());
    assertEquals(UI, r.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    assertEquals("Content-Type, X-Namespace", r.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
    assertTrue(r.headers().firstValue("Access-Control-Allow-Methods").orElse("").contains("POST"));
  }

  @Test
  void requestFromAnotherOrigin_isRefusedWithoutDecoding() throws Exception {
    String sealed = post(server, "/encode", PLAIN, null).body();
    HttpResponse<String> r = post(server, "/decode", sealed, "https://evil.example");
    assertEquals(403, r.statusCode());
    assertFalse(r.body().contains("top secret"));
    assertTrue(r.body().contains("--origin https://evil.example"), r.body());
    assertTrue(r.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
  }

  @Test
  void otherPathsMethodsAndHugeBodies_areRefusedClearly() throws Exception {
    assertEquals(404, post(server, "/decrypt", PLAIN, null).statusCode());
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + "/decode")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(405, get.statusCode());
    assertEquals("POST, OPTIONS", get.headers().firstValue("Allow").orElse(null));
    HttpResponse<String> big = post(server, "/encode", "x".repeat(CodecServer.MAX_BODY_BYTES + 1), null);
    assertEquals(413, big.statusCode());
  }
}
