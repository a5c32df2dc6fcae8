package cp.tools.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/** A client transport that passes everything to another one: the base of decorators that watch or add messages. */
abstract class ForwardingTransport implements McpClientTransport {
  protected final McpClientTransport delegate;

  protected ForwardingTransport(McpClientTransport delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return delegate.sendMessage(message);
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return delegate.connect(handler);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return delegate.unmarshalFrom(data, type);
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    delegate.setExceptionHandler(handler);
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }
}
