package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import cp.workflows.CpSearchAttributes;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.common.v1.WorkflowType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoResponse;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsResponse;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.SearchAttributes;
import io.temporal.internal.common.SearchAttributesUtil;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: {@link ControlPlaneClient#list} on a service that has visibility queries. The
 * in-process test service has none, so this is a real gRPC server on a loopback port answering
 * {@code ListWorkflowExecutions} as a Temporal server does (pages, next-page tokens, typed search
 * attributes); the client goes through the Temporal SDK's own stubs and paging.
 */
class ClientListTest {
  static final Instant T0 = Instant.parse("2026-11-23T15:00:00Z");
  private final List<ListWorkflowExecutionsRequest> requests = new CopyOnWriteArrayList<>();
  private Server server;
  private WorkflowServiceStubs stubs;
  private ControlPlaneClient client;

  private static WorkflowExecutionInfo session(String sid, String agent, Long turns, WorkflowExecutionStatus status,
      int minute, boolean closed) {
    SearchAttributes.Builder sa = SearchAttributes.newBuilder().set(CpSearchAttributes.SESSION_ID, sid);
    if (agent != null) {
      sa.set(CpSearchAttributes.AGENT_CLASS, agent);
    }
    if (turns != null) {
      sa.set(CpSearchAttributes.TURN, turns);
    }
    WorkflowExecutionInfo.Builder b = WorkflowExecutionInfo.newBuilder()
        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(sid).setRunId("run-" + sid))
        .setType(WorkflowType.newBuilder().setName("SessionWorkflow"))
        .setStatus(status)
        .setStartTime(Timestamp.newBuilder().setSeconds(T0.getEpochSecond() + minute * 60L))
        .setSearchAttributes(SearchAttributesUtil.encodeTyped(sa.build()));
    if (closed) {
      b.setCloseTime(Timestamp.newBuilder().setSeconds(T0.getEpochSecond() + minute * 60L + 30));
    }
    return b.build();
  }

  /** Two pages of two sessions each; a query the "server" cannot parse is INVALID_ARGUMENT. */
  final class Visibility extends WorkflowServiceGrpc.WorkflowServiceImplBase {
    /** The SDK asks every server for its capabilities first. */
    @Override
    public void getSystemInfo(GetSystemInfoRequest request, StreamObserver<GetSystemInfoResponse> response) {
      response.onNext(GetSystemInfoResponse.newBuilder().setServerVersion("1.29.0").build());
      response.onCompleted();
    }

    @Override
    public void listWorkflowExecutions(ListWorkflowExecutionsRequest request,
        StreamObserver<ListWorkflowExecutionsResponse> response) {
      requests.add(request);
      if (request.getQuery().contains("Bogus")) {
        response.onError(Status.INVALID_ARGUMENT.withDescription("invalid query: unknown field Bogus")
            .asRuntimeException());
        return;
      }
      ListWorkflowExecutionsResponse.Builder page = ListWorkflowExecutionsResponse.newBuilder();
      if (request.getNextPageToken().isEmpty()) {
        page.addExecutions(session("SES-0000000d", "ADMIN", 3L, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
            4, false));
        page.addExecutions(session("SES-0000000c", "RESIDENT", 12L,
            WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, 3, true));
        page.setNextPageToken(ByteString.copyFromUtf8("page-2"));
      } else {
        page.addExecutions(session("SES-0000000b", null, null, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED,
            2, true));
        page.addExecutions(session("SES-0000000a", "ADMIN", 0L,
            WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, 1, true));
      }
      response.onNext(page.build());
      response.onCompleted();
    }
  }

  @BeforeEach
  void start() throws Exception {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(new Visibility()).build()
        .start();
    stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
        .setTarget("127.0.0.1:" + server.getPort()).build());
    client = ControlPlaneClient.newBuilder(WorkflowClient.newInstance(stubs,
        WorkflowClientOptions.newBuilder().setNamespace("default").build())).build();
  }

  @AfterEach
  void stop() throws Exception {
    stubs.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void list_readsEverySessionAcrossPages_withItsAgentTurnsAndStatus() {
    List<SessionListing> all = client.list();
    assertEquals(List.of("SES-0000000d", "SES-0000000c", "SES-0000000b", "SES-0000000a"),
        all.stream().map(SessionListing::sessionId).toList());
    assertEquals(new SessionListing("SES-0000000d", "ADMIN", "RUNNING", 3L, T0.plusSeconds(240), null), all.get(0));
    assertEquals(new SessionListing("SES-0000000c", "RESIDENT", "COMPLETED", 12L, T0.plusSeconds(180),
        T0.plusSeconds(210)), all.get(1));
    SessionListing failed = all.get(2);
    assertEquals("FAILED", failed.status());
    assertNull(failed.agentClass());
    assertNull(failed.turns());
    assertEquals("default", requests.get(0).getNamespace());
    assertEquals("WorkflowType='SessionWorkflow'", requests.get(0).getQuery());
  }

  @Test
  void connect_byAddressAndNamespace_reachesTheService() {
    ControlPlaneClient own = ControlPlaneClient.connect("127.0.0.1:" + server.getPort(), "sessions-ns");
    try {
      assertEquals(4, own.list().size());
      assertEquals("sessions-ns", requests.get(requests.size() - 1).getNamespace());
    } finally {
      own.close();
    }
  }

  @Test
  void list_withAFilterAndALimit_andsTheFilter_andStopsAtTheLimit() {
    List<SessionListing> some = client.list("CpAgentClass=\"ADMIN\"", 3);
    assertEquals(3, some.size());
    assertEquals("WorkflowType='SessionWorkflow' AND (CpAgentClass=\"ADMIN\")", requests.get(0).getQuery());
  }

  @Test
  void list_withAQueryTheServiceRefuses_isRefusedNamingTheFilter() {
    ClientException e = assertThrows(ClientException.class, () -> client.list("Bogus=1", 10));
    assertEquals(ClientException.Kind.REFUSED, e.kind());
    assertTrue(e.getMessage().contains("'Bogus=1'") && e.getMessage().contains("unknown field Bogus"), e.getMessage());
    ClientException limit = assertThrows(ClientException.class, () -> client.list(null, 0));
    assertEquals(ClientException.Kind.REFUSED, limit.kind());
  }
}
