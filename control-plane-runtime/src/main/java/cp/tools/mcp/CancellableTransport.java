package cp.tools.mcp;

import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * A transport that can cancel a request the SDK sent: MCP's {@code notifications/cancelled} with
 * the request's JSON-RPC id. The SDK (2.1.0) sends no cancellation when a caller stops waiting, and
 * keeps the ids it makes to itself; a call learns its request's id through the Reactor context
 * ({@link #tracking}), which the SDK passes on to the transport's {@code sendMessage}.
 */
final class CancellableTransport extends ForwardingTransport {
  /** The MCP notification a client sends when it no longer wants a request's result. */
  static final String CANCELLED = "notifications/cancelled";
  private static final String KEY = CancellableTransport.class.getName();

  /** The JSON-RPC id of the request sent under one call's context, once it is sent. */
  static final class SentRequest {
    private volatile Object id;

    Object id() {
      return id;
    }
  }

  CancellableTransport(McpClientTransport delegate) {
    super(delegate);
  }

  /** The context a call subscribes with, so that {@code sent} learns its request's id. */
  static Context tracking(SentRequest sent) {
    return Context.of(KEY, sent);
  }

  /** Tells the server that the request {@code id} is no longer awaited (best effort). */
  Mono<Void> cancel(Object id, String reason) {
    return delegate.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, CANCELLED,
        Map.of("requestId", id, "reason", reason)));
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.deferContextual(ctx -> {
      if (message instanceof McpSchema.JSONRPCRequest r && ctx.hasKey(KEY)) {
        ((SentRequest) ctx.get(KEY)).id = r.id();
      }
      return delegate.sendMessage(message);
    });
  }
}
