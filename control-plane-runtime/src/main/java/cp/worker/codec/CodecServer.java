package cp.worker.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.temporal.api.common.v1.Payload;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Temporal's remote codec protocol over the JDK's HTTP server, so the Temporal Web UI and CLI
 * ({@code --codec-endpoint}) can show payloads the plane encrypted.
 *
 * <p>{@code POST /encode} and {@code POST /decode} take and return
 * {@code {"payloads":[{"metadata":{"k":"<base64>"},"data":"<base64>"}]}} (the protobuf JSON of
 * {@code temporal.api.common.v1.Payloads}). Browsers get CORS for the configured UI origins only:
 * a preflight answer allowing {@code Content-Type, X-Namespace}, and
 * {@code Access-Control-Allow-Origin} echoing an allowed origin; a request from any other origin
 * is refused with 403 rather than processed with its answer hidden by the browser.
 *
 * <p>Answers: 200 with the payloads; 400 for a body that is not that JSON; 413 above
 * {@value #MAX_BODY_BYTES} bytes (Temporal's own gRPC message limit); 422 for payloads the key
 * cannot decode (another key id, altered ciphertext), with a one-line reason; 404 and 405 for
 * other paths and methods. Payload contents are never logged.
 */
public final class CodecServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CodecServer.class);
  /** Temporal's default gRPC message limit; no real request to a codec server is larger. */
  public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
  public static final String ALLOW_HEADERS = "Content-Type, X-Namespace";
  static final String ALLOW_METHODS = "POST, OPTIONS";
  /** How long a browser may cache the preflight answer. */
  static final int PREFLIGHT_MAX_AGE_SECONDS = 600;
  /** Requests are small and fast; a few threads keep one slow client from blocking the UI. */
  static final int THREADS = 4;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor;
  private final Set<String> allowedOrigins;
  private final PayloadCodec codec;

  private CodecServer(HttpServer server, ExecutorService executor, Set<String> allowedOrigins, PayloadCodec codec) {
    this.server = server;
    this.executor = executor;
    this.allowedOrigins = allowedOrigins;
    this.codec = codec;
  }

  /**
   * Starts serving on {@code bind} (port 0: any free port).
   *
   * @param allowedOrigins the Web UI origins browsers may call from, e.g. {@code http://localhost:8080}
   * @throws IOException if the address cannot be bound
   */
  public static CodecServer start(InetSocketAddress bind, List<String> allowedOrigins, PayloadCodec codec)
      throws IOException {
    Objects.requireNonNull(codec, "codec");
    HttpServer http = HttpServer.create(bind, 0);
    ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "codec-server");
      t.setDaemon(true);
      return t;
    });
    CodecServer s = new CodecServer(http, executor, Set.copyOf(allowedOrigins), codec);
    http.createContext("/", s::handle);
    http.setExecutor(executor);
    http.start();
    return s;
  }

  /** The port actually bound. */
  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      String method = ex.getRequestMethod();
      String origin = ex.getRequestHeaders().getFirst("Origin");
      Headers out = ex.getResponseHeaders();
      out.add("Vary", "Origin");
      if (origin != null) {
        if (!allowedOrigins.contains(origin)) {
          reply(ex, 403, "origin " + origin + " is not allowed; allowed: " + String.join(", ", allowedOrigins.stream()
              .sorted().toList()) + " (start the codec server with --origin " + origin + " to allow it)");
          return;
        }
        out.add("Access-Control-Allow-Origin", origin);
        out.add("Access-Control-Allow-Credentials", "true");
      }
      Function<List<Payload>, List<Payload>> op = switch (path) {
        case "/encode" -> codec::encode;
        case "/decode" -> codec::decode;
        default -> null;
      };
      if (op == null) {
        reply(ex, 404, "no such endpoint " + path + "; the codec server answers POST /encode and POST /decode");
        return;
      }
      if (method.equals("OPTIONS")) {
        out.add("Access-Control-Allow-Methods", ALLOW_METHODS);
        out.add("Access-Control-Allow-Headers", ALLOW_HEADERS);
        out.add("Access-Control-Max-Age", String.valueOf(PREFLIGHT_MAX_AGE_SECONDS));
        ex.sendResponseHeaders(204, -1);
        return;
      }
      if (!method.equals("POST")) {
        out.add("Allow", ALLOW_METHODS);
        reply(ex, 405, method + " " + path + " is not supported; use POST");
        return;
      }
      byte[] body = readBounded(ex.getRequestBody());
      if (body == null) {
        reply(ex, 413, "request body is larger than " + MAX_BODY_BYTES + " bytes");
        return;
      }
      List<Payload> in;
      try {
        in = parse(body);
      } catch (IllegalArgumentException e) {
        reply(ex, 400, "request body is not {\"payloads\":[{\"metadata\":{...},\"data\":\"<base64>\"}]}: "
            + e.getMessage());
        return;
      }
      List<Payload> result;
      try {
        result = op.apply(in);
      } catch (PayloadCodecException e) {
        LOG.debug("{} of {} payload(s) refused: {}", path, in.size(), e.getMessage());
        reply(ex, 422, "cannot " + path.substring(1) + ": " + e.getMessage());
        return;
      }
      byte[] json = MAPPER.writeValueAsBytes(render(result));
      out.add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, json.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(json);
      }
      LOG.debug("{} {} payload(s)", path, result.size());
    } catch (IOException | RuntimeException e) {
      LOG.warn("codec server request failed: {}", e.toString());
      throw e;
    }
  }

  private static byte[] readBounded(InputStream in) throws IOException {
    byte[] b = in.readNBytes(MAX_BODY_BYTES + 1);
    return b.length > MAX_BODY_BYTES ? null : b;
  }

  private static void reply(HttpExchange ex, int status, String message) throws IOException {
    byte[] b = (message + "\n").getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(b);
    }
  }

  /** Parses the protocol's JSON; every problem names where it is. */
  static List<Payload> parse(byte[] body) {
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable body: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("expected a JSON object");
    }
    JsonNode payloads = root.get("payloads");
    if (payloads == null || payloads.isNull()) {
      return List.of();
    }
    if (!payloads.isArray()) {
      throw new IllegalArgumentException("'payloads' must be an array");
    }
    List<Payload> out = new ArrayList<>();
    for (int i = 0; i < payloads.size(); i++) {
      JsonNode p = payloads.get(i);
      String where = "payloads[" + i + "]";
      if (!p.isObject()) {
        throw new IllegalArgumentException(where + " must be an object");
      }
      Payload.Builder b = Payload.newBuilder();
      JsonNode meta = p.get("metadata");
      if (meta != null && !meta.isNull()) {
        if (!meta.isObject()) {
          throw new IllegalArgumentException(where + ".metadata must be an object");
        }
        for (Map.Entry<String, JsonNode> e : meta.properties()) {
          b.putMetadata(e.getKey(), bytes(e.getValue(), where + ".metadata." + e.getKey()));
        }
      }
      JsonNode data = p.get("data");
      if (data != null && !data.isNull()) {
        b.setData(bytes(data, where + ".data"));
      }
      out.add(b.build());
    }
    return out;
  }

  private static ByteString bytes(JsonNode v, String where) {
    if (!v.isTextual()) {
      throw new IllegalArgumentException(where + " must be a base64 string");
    }
    String s = v.asText();
    try {
      return ByteString.copyFrom(Base64.getDecoder().decode(s));
    } catch (IllegalArgumentException standard) {
      try {
        return ByteString.copyFrom(Base64.getUrlDecoder().decode(s));
      } catch (IllegalArgumentException url) {
        throw new IllegalArgumentException(where + " is not base64");
      }
    }
  }

  static ObjectNode render(List<Payload> payloads) {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode arr = root.putArray("payloads");
    Base64.Encoder enc = Base64.getEncoder();
    for (Payload p : payloads) {
      ObjectNode o = arr.addObject();
      ObjectNode meta = o.putObject("metadata");
      p.getMetadataMap().forEach((k, v) -> meta.put(k, enc.encodeToString(v.toByteArray())));
      if (!p.getData().isEmpty()) {
        o.put("data", enc.encodeToString(p.getData().toByteArray()));
      }
    }
    return root;
  }

  /** Stops at once; requests in flight are cut. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
