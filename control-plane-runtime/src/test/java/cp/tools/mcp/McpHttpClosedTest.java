package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A streamable HTTP MCP server that closes the connection (before an answer) is reported in words,
 * naming the server and its URL, to the model and in the log; before, the user read a Java class
 * name, {@code ClosedChannelException}.
 */
class McpHttpClosedTest {
  static final McpSettings SETTINGS = new McpSettings(Duration.ofSeconds(20), Duration.ofSeconds(20));
  static final Duration GUARD = Duration.ofSeconds(60);

  @RegisterExtension final CapturedLog log = CapturedLog.of(McpConnection.class);
  private ServerSocket socket;

  /**
   * A minimal HTTP MCP server on a free port: answers the handshake and the tool listing (one tool,
   * {@code echo}), and closes the connection without a word on anything else; when not
   * {@code answerHandshake}, closes every connection as soon as it is accepted.
   */
  private URI serve(boolean answerHandshake) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      while (!socket.isClosed()) {
        try (Socket s = socket.accept()) {
          if (answerHandshake) {
            answer(s);
          } // else closed at once, before the request is read
        } catch (IOException e) {
          // closed by the test, or the client went away
        }
      }
    }, "closing-mcp-server");
    t.setDaemon(true);
    t.start();
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/mcp");
  }

  private static void answer(Socket s) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
    int length = 0;
    String line;
    String method = null;
    while ((line = in.readLine()) != null && !line.isEmpty()) {
      if (method == null) {
        method = line.split(" ")[0];
      }
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    char[] body = new char[length];
    int read = 0;
    while (read < length) {
      int n = in.read(body, read, length - read);
      if (n < 0) {
        break;
      }
      read += n;
    }
    if (!"POST".equals(method)) {
      return; // closes the connection without an answer
    }
    var msg = Json.parse(new String(body, 0, read));
    String rpc = msg.path("method").asText();
    String result;
    if (rpc.equals("initialize")) {
      result = "{\"protocolVersion\":\"" + msg.path("params").path("protocolVersion").asText() + "\",\"capabilities\":"
          + "{\"tools\":{}},\"serverInfo\":{\"name\":\"closing\",\"version\":\"1\"}}";
    } else if (rpc.equals("tools/list")) {
      result = "{\"tools\":[{\"name\":\"echo\",\"description\":\"Echo\",\"inputSchema\":{\"type\":\"object\"}}]}";
    } else if (rpc.startsWith("notifications/")) {
      write(s, "202 Accepted", "");
      return;
    } else {
      return; // tools/call: closes the connection without an answer
    }
    write(s, "200 OK", "{\"jsonrpc\":\"2.0\",\"id\":" + msg.path("id") + ",\"result\":" + result + "}");
  }

  private static void write(Socket s, String status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    OutputStream out = s.getOutputStream();
    out.write(("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.write(bytes);
    out.flush();
  }

  @AfterEach
  void stop() throws IOException {
    if (socket != null) {
      socket.close();
    }
  }

  @Test
  void aServerThatClosesTheConnectionAtStart_isNamedWithItsUrl_inWords() throws IOException {
    URI url = serve(false);
    try (McpConnection c = new McpConnection(new McpServerSpec.Http("closer", url, Map.of()), Map.of(), SETTINGS)) {
      McpUnavailableException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(McpUnavailableException.class,
          c::start));

      assertFalse(e.getMessage().contains("Exception"), e.getMessage());
      assertTrue(e.getMessage().contains("closer") && e.getMessage().contains(url.toString())
          && e.getMessage().contains("closed the connection"), e.getMessage());
    }
  }

  @Test
  void aServerThatClosesTheConnectionDuringACall_isNamedWithItsUrl_inWords() throws IOException {
    URI url = serve(true);
    try (McpConnection c = new McpConnection(new McpServerSpec.Http("closer", url, Map.of()), Map.of(), SETTINGS)) {
      c.start();
      ToolResult r = assertTimeoutPreemptively(GUARD, () -> c.call("echo", Json.parse("{}")));

      assertEquals(ToolErrorCodes.SERVER_UNAVAILABLE, r.errorCode(), r::toString);
      assertFalse(r.content().contains("Exception"), r::toString);
      assertTrue(r.content().contains("closer") && r.content().contains(url.toString())
          && r.content().contains("closed the connection"), r::toString);
      String warnings = String.join("\n", log.warnings());
      assertFalse(warnings.contains("ClosedChannelException"), warnings);
      assertTrue(warnings.contains(url.toString()) && warnings.contains("closed the connection"), warnings);
    }
  }
}
