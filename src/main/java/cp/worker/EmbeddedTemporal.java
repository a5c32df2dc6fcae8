package cp.worker;

import io.grpc.ManagedChannel;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testserver.TestServer;
import java.io.Closeable;
import java.io.IOException;

/**
 * The Temporal service that ships with the SDK, run inside this JVM: in-process (chat with no
 * {@code TEMPORAL_ADDRESS}) or on a TCP port ({@code cpctl dev-server}).
 *
 * <p>It runs in real time (time skipping locked) and keeps everything in memory: restarting it
 * loses every workflow, while the ledgers on disk survive. It has no visibility store, so
 * workflow list queries do not work against it (TEMPORAL-NOTES.md).
 */
public final class EmbeddedTemporal implements AutoCloseable {
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
    TestServer.InProcessTestServer server = TestServer.createServer(true);
    ManagedChannel channel = server.getChannel();
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setChannel(channel).build());
    OperatorServiceStubs operator = OperatorServiceStubs.newServiceStubs(
        OperatorServiceStubsOptions.newBuilder().setChannel(channel).validateAndBuildWithDefaults());
    return new EmbeddedTemporal(server, service, operator, "in-process");
  }

  /** A service on {@code port} (all interfaces), for separate worker and client processes. */
  public static EmbeddedTemporal onPort(int port) {
    TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port, true);
    String target = "127.0.0.1:" + port;
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
