package cp.bench;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A worker's connection to Temporal that a test or the benchmark's crash measure (P6) can cut, as the death of the worker's process
 * would: {@link #sever()} cancels every call in flight (long polls included) and fails every
 * later one, so the dead worker can neither heartbeat, nor report a result, nor take a task.
 *
 * <p>Shutting the worker factory down is not enough on its own inside one JVM: the activity
 * thread blocked in a provider call is still alive and its worker's client still connected, so
 * it can heartbeat and, once the call ends, report the attempt as failed. The server then
 * retries at once (measured here: about 250 ms) — a graceful failure, not the crash under test,
 * which the server only learns of when the heartbeat timeout expires.
 */
public final class SeverableConnection implements ClientInterceptor {
  private final Set<ClientCall<?, ?>> live = ConcurrentHashMap.newKeySet();
  private volatile boolean severed;

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    if (severed) {
      return new Dead<>();
    }
    ClientCall<Q, R> call = next.newCall(method, options);
    live.add(call);
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
          @Override
          public void onClose(Status status, Metadata trailers) {
            live.remove(call);
            super.onClose(status, trailers);
          }
        }, headers);
        if (severed) {
          call.cancel("the worker's process died (test)", null);
        }
      }
    };
  }

  /** Cuts the connection: calls in flight are cancelled, new ones fail with UNAVAILABLE. */
  public void sever() {
    severed = true;
    for (ClientCall<?, ?> call : live) {
      call.cancel("the worker's process died (test)", null);
    }
  }

  /** A call on a dead connection: closes with UNAVAILABLE as soon as it starts. */
  private static final class Dead<Q, R> extends ClientCall<Q, R> {
    @Override
    public void start(Listener<R> listener, Metadata headers) {
      listener.onClose(Status.UNAVAILABLE.withDescription("the worker's process died (test)"), new Metadata());
    }

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(String message, Throwable cause) {}

    @Override
    public void halfClose() {}

    @Override
    public void sendMessage(Q message) {}
  }
}
