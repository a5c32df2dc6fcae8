package cp.worker;

import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testserver.TestServer;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The Temporal service that ships with the SDK, run inside this JVM: in-process (chat with no
 * {@code TEMPORAL_ADDRESS}) or on a TCP port ({@code cpctl dev-server}).
 *
 * <p>It runs in real time (time skipping locked) and keeps everything in memory: restarting it
 * loses every workflow, while the ledgers on disk survive. It has no visibility store, so
 * workflow list queries do not work against it (TEMPORAL-NOTES.md).
 */
public final class EmbeddedTemporal implements AutoCloseable {
  /** How long a port-bound service waits for open calls on close (the SDK's own test server waits 5 s). */
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

  private final Closeable server;
  private final WorkflowServiceStubs service;
  private final OperatorServiceStubs operator;
  private final String target;

  private EmbeddedTemporal(Closeable server, WorkflowServiceStubs service, OperatorServiceStubs operator, String target) {
    this.server = server;
    this.service = service;
    this.operator = operator;
    this.target = target;
  }

  /** An in-process service reachable only from this JVM. */
  public static EmbeddedTemporal inProcess() {
    return inProcess(null);
  }

  /** An in-process service whose client stubs report the SDK's metrics to {@code metricsScope} (null: none). */
  public static EmbeddedTemporal inProcess(com.uber.m3.tally.Scope metricsScope) {
    TestServer.InProcessTestServer server = TestServer.createServer(true);
    ManagedChannel channel = server.getChannel();
    WorkflowServiceStubsOptions.Builder options = WorkflowServiceStubsOptions.newBuilder().setChannel(channel);
    if (metricsScope != null) {
      options.setMetricsScope(metricsScope);
    }
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(options.build());
    OperatorServiceStubs operator = OperatorServiceStubs.newServiceStubs(
        OperatorServiceStubsOptions.newBuilder().setChannel(channel).validateAndBuildWithDefaults());
    return new EmbeddedTemporal(server, service, operator, "in-process");
  }

  /** A service on {@code port} of 127.0.0.1 only, for separate worker and client processes. */
  public static EmbeddedTemporal onPort(int port) {
    return onAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
  }

  /**
   * A service listening on {@code address} only (0.0.0.0 for every interface).
   *
   * <p>The SDK's {@code TestServer.createPortBoundServer} always binds every interface, and this
   * service has no authentication, so it is assembled here the same way (the SDK's test services
   * with their gRPC health checks, in real time) on a Netty server bound to the one address.
   *
   * @throws java.io.UncheckedIOException when the address cannot be listened on
   */
  public static EmbeddedTemporal onAddress(InetSocketAddress address) {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    Server grpc;
    try {
      ServerBuilder<?> builder = NettyServerBuilder.forAddress(address, InsecureServerCredentials.create());
      GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
      grpc = builder.build().start();
    } catch (IOException e) {
      services.close();
      throw new UncheckedIOException(e.getMessage() == null ? "cannot listen on " + address : e.getMessage(), e);
    } catch (RuntimeException e) {
      services.close();
      throw e;
    }
    Closeable server = () -> {
      grpc.shutdown();
      try {
        if (!grpc.awaitTermination(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          grpc.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        grpc.shutdownNow();
      }
      services.close();
    };
    InetAddress bound = address.getAddress();
    String host = bound == null || bound.isAnyLocalAddress() ? "127.0.0.1"
        : bound instanceof Inet6Address ? "[" + bound.getHostAddress() + "]" : bound.getHostAddress();
    String target = host + ":" + address.getPort();
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    OperatorServiceStubs operator = OperatorServiceStubs.newServiceStubs(
        OperatorServiceStubsOptions.newBuilder().setTarget(target).validateAndBuildWithDefaults());
    return new EmbeddedTemporal(server, service, operator, target);
  }

  public WorkflowServiceStubs service() {
    return service;
  }

  public OperatorServiceStubs operator() {
    return operator;
  }

  public String target() {
    return target;
  }

  @Override
  public void close() {
    operator.shutdownNow();
    service.shutdownNow();
    try {
      server.close();
    } catch (IOException e) {
      // The in-memory service holds nothing worth reporting on close.
    }
  }
}
