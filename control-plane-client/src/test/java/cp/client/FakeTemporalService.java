package cp.client;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoResponse;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC server on a loopback port that answers what a test's {@link Service} implements, as a
 * Temporal service would, and a WorkflowClient of it: the client goes through the SDK's own stubs.
 */
final class FakeTemporalService implements AutoCloseable {
  /** What the fake answers; every fake answers the SDK's capability check. */
  abstract static class Service extends WorkflowServiceGrpc.WorkflowServiceImplBase {
    @Override
    public void getSystemInfo(GetSystemInfoRequest request, StreamObserver<GetSystemInfoResponse> response) {
      response.onNext(GetSystemInfoResponse.newBuilder().setServerVersion("1.29.0").build());
      response.onCompleted();
    }
  }

  private final Server server;
  private final WorkflowServiceStubs stubs;
  final WorkflowClient client;

  FakeTemporalService(Service service) throws IOException {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
    stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
        .setTarget("127.0.0.1:" + server.getPort()).build());
    client = WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder().setNamespace("default").build());
  }

  @Override
  public void close() throws InterruptedException {
    stubs.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
