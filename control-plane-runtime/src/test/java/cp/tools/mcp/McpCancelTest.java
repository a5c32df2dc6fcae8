package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A call that times out is cancelled at the server (MCP's notifications/cancelled naming the
 * request's JSON-RPC id), over stdio and streamable HTTP against the real reference server, and
 * the connection stays usable.
 */
class McpCancelTest {
  /** Records every message the SDK sends through the transport it wraps. */
  static final class Recorder extends ForwardingTransport {
    final List<McpSchema.JSONRPCMessage> sent = new CopyOnWriteArrayList<>();

    Recorder(McpClientTransport delegate) {
      super(delegate);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage m) {
      sent.add(m);
      return delegate.sendMessage(m);
    }
  }

  private static void assertCancelledOnTimeout(McpServerSpec spec) {
    List<Recorder> recorders = new CopyOnWriteArrayList<>();
    UnaryOperator<McpClientTransport> record = t -> {
      Recorder r = new Recorder(t);
      recorders.add(r);
      return r;
    };
    try (McpConnection c = new McpConnection(spec, System.getenv(), McpSettings.DEFAULTS, list -> { }, record)) {
      ToolResult slow = c.call("trigger-long-running-operation", Json.parse("{\"duration\": 5, \"steps\": 5}"),
          Duration.ofMillis(500));

      assertEquals(ToolErrorCodes.TOOL_TIMEOUT, slow.errorCode(), slow.content());
      List<McpSchema.JSONRPCMessage> sent = recorders.get(0).sent;
      Object callId = sent.stream().filter(m -> m instanceof McpSchema.JSONRPCRequest r && "tools/call".equals(r.method()))
          .map(m -> ((McpSchema.JSONRPCRequest) m).id()).findFirst().orElseThrow();
      McpSchema.JSONRPCNotification cancel = sent.stream().filter(m -> m instanceof McpSchema.JSONRPCNotification n
          && CancellableTransport.CANCELLED.equals(n.method())).map(m -> (McpSchema.JSONRPCNotification) m)
          .findFirst().orElseThrow(() -> new AssertionError("no cancellation sent: " + sent));
      assertEquals(callId, ((Map<?, ?>) cancel.params()).get("requestId"), "it names the call that timed out");
      assertTrue(String.valueOf(((Map<?, ?>) cancel.params()).get("reason")).contains("500 ms"));
      assertEquals(ToolResult.ok("Echo: still here"), c.call("echo", Json.parse("{\"message\":\"still here\"}")),
          "the connection goes on");
      assertEquals(1, c.starts(), "no restart was needed");
    }
  }

  /**
   * A call's own timeout (an agent's tool_timeout_seconds) may be longer than the start timeout,
   * which bounds the handshake and the listing: the SDK's request timeout must not cut the call first.
   */
  @Test
  void aCallMayTakeLongerThanTheStartTimeout_whenItsOwnTimeoutAllows() {
    McpSettings quickStart = new McpSettings(Duration.ofSeconds(1), Duration.ofSeconds(2));
    try (McpConnection c = new McpConnection(ReferenceServers.everythingStdio("everything", Map.of()),
        System.getenv(), quickStart)) {
      ToolResult r = c.call("trigger-long-running-operation", Json.parse("{\"duration\": 3, \"steps\": 1}"),
          Duration.ofSeconds(6));

      assertEquals(ToolResult.OK, r.status(), r.content());
      assertTrue(r.content().startsWith("Long running operation completed. Duration: 3"), r.content());
    }
  }

  @Test
  void aCallThatTimesOut_isCancelledAtTheServer_overStdio() {
    assertCancelledOnTimeout(ReferenceServers.everythingStdio("everything", Map.of()));
  }

  @Test
  void aCallThatTimesOut_isCancelledAtTheServer_overStreamableHttp() {
    try (ReferenceServers.HttpServer server = ReferenceServers.everythingHttp()) {
      assertCancelledOnTimeout(new McpServerSpec.Http("remote", server.url(), Map.of()));
    }
  }
}
