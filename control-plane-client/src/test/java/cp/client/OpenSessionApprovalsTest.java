package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import cp.model.PendingApproval;
import cp.model.SessionState;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsResponse;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsResponse;
import io.temporal.api.workflowservice.v1.QueryWorkflowRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowResponse;
import io.temporal.common.converter.DataConverter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Issue 20: {@link ControlPlaneClient#pendingApprovals()} asks the service which sessions are
 * open and each for its pending calls, also on a service without visibility queries (the SDK's
 * test service behind {@code cpctl dev-server}), through its list of open executions.
 */
class OpenSessionApprovalsTest {
  static final PendingApproval WAITING = new PendingApproval("APR-0000000b-0001-02-1-1", "SES-0000000b", 1,
      "SES-0000000b/turn-0001", "WO-0000000b-0001-02", "write_file", "tu-1", "HO2/notes.md (12 bytes, 1 line)",
      "2026-11-26T09:00:00Z", "2026-11-26T09:04:00Z", 240, "deny", "LED-1");

  /** No visibility queries; three open sessions over two pages; one of them waits for a person. */
  static final class DevServerLike extends FakeTemporalService.Service {
    final List<String> asked = new CopyOnWriteArrayList<>();
    final List<ListOpenWorkflowExecutionsRequest> listed = new CopyOnWriteArrayList<>();

    @Override
    public void listWorkflowExecutions(ListWorkflowExecutionsRequest request,
        StreamObserver<ListWorkflowExecutionsResponse> response) {
      response.onError(Status.UNIMPLEMENTED.withDescription("not implemented").asRuntimeException());
    }

    @Override
    public void listOpenWorkflowExecutions(ListOpenWorkflowExecutionsRequest request,
        StreamObserver<ListOpenWorkflowExecutionsResponse> response) {
      listed.add(request);
      ListOpenWorkflowExecutionsResponse.Builder page = ListOpenWorkflowExecutionsResponse.newBuilder();
      if (request.getNextPageToken().isEmpty()) {
        page.addExecutions(open("SES-0000000c")).addExecutions(open("SES-0000000b"))
            .setNextPageToken(ByteString.copyFromUtf8("page-2"));
      } else {
        page.addExecutions(open("SES-0000000a"));
      }
      response.onNext(page.build());
      response.onCompleted();
    }

    @Override
    public void queryWorkflow(QueryWorkflowRequest request, StreamObserver<QueryWorkflowResponse> response) {
      String sid = request.getExecution().getWorkflowId();
      asked.add(sid + ":" + request.getQuery().getQueryType());
      if (sid.equals("SES-0000000a")) {
        response.onError(Status.NOT_FOUND.withDescription("gone").asRuntimeException());
        return;
      }
      SessionState state = new SessionState(sid, "ADMIN", null, 0, 0, 0, 0, null, false, null, 0, 1, 0,
          sid.equals("SES-0000000b") ? List.of(WAITING) : List.of());
      Payloads result = DataConverter.getDefaultInstance().toPayloads(state).orElseThrow();
      response.onNext(QueryWorkflowResponse.newBuilder().setQueryResult(result).build());
      response.onCompleted();
    }

    private static WorkflowExecutionInfo open(String sid) {
      return WorkflowExecutionInfo.newBuilder().setExecution(WorkflowExecution.newBuilder().setWorkflowId(sid)
          .setRunId("run-" + sid)).build();
    }
  }

  @Test
  void pendingApprovals_onAServiceWithoutVisibility_asksEveryOpenSessionItsListNames() throws Exception {
    DevServerLike service = new DevServerLike();
    try (FakeTemporalService fake = new FakeTemporalService(service)) {
      ControlPlaneClient client = ControlPlaneClient.newBuilder(fake.client).build();

      List<PendingApproval> pending = client.pendingApprovals();

      assertEquals(List.of(WAITING), pending);
      assertEquals(List.of("SES-0000000a:state", "SES-0000000b:state", "SES-0000000c:state"),
          service.asked.stream().sorted().toList(), "every open session, on both pages, was asked once");
      assertEquals("SessionWorkflow", service.listed.get(0).getTypeFilter().getName(), "only sessions are listed");
      client.close();
    }
  }
}
