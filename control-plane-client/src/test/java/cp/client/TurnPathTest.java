package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.model.TurnResult;
import io.grpc.stub.StreamObserver;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.UpdateWorkflowExecutionLifecycleStage;
import io.temporal.api.update.v1.Outcome;
import io.temporal.api.update.v1.UpdateRef;
import io.temporal.api.workflowservice.v1.QueryWorkflowRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowResponse;
import io.temporal.api.workflowservice.v1.UpdateWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.UpdateWorkflowExecutionResponse;
import io.temporal.common.converter.DataConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: a turn makes no round trip that buys nothing. Asked for progress, the client used to
 * read the session's state (a Query) before sending the turn; now the Update goes first and alone,
 * and a turn answered within one progress interval costs nothing more.
 */
class TurnPathTest {
  static final String SID = "SES-1a2b3c4d";

  /** A session that answers every turn at once, and writes down which calls reached it, in order. */
  static final class AnswersAtOnce extends FakeTemporalService.Service {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public void updateWorkflowExecution(UpdateWorkflowExecutionRequest request,
        StreamObserver<UpdateWorkflowExecutionResponse> response) {
      calls.add("update " + request.getRequest().getInput().getName());
      TurnResult r = new TurnResult("hi there", "success", SID, 1, true, List.of(), null, List.of(), List.of(), "h",
          null);
      Payloads result = DataConverter.getDefaultInstance().toPayloads(r).orElseThrow();
      response.onNext(UpdateWorkflowExecutionResponse.newBuilder()
          .setUpdateRef(UpdateRef.newBuilder().setUpdateId(request.getRequest().getMeta().getUpdateId())
              .setWorkflowExecution(WorkflowExecution.newBuilder().setWorkflowId(SID).setRunId("run-1")))
          .setOutcome(Outcome.newBuilder().setSuccess(result))
          .setStage(UpdateWorkflowExecutionLifecycleStage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED)
          .build());
      response.onCompleted();
    }

    @Override
    public void queryWorkflow(QueryWorkflowRequest request, StreamObserver<QueryWorkflowResponse> response) {
      calls.add("query " + request.getQuery().getQueryType());
      response.onNext(QueryWorkflowResponse.newBuilder().build());
      response.onCompleted();
    }
  }

  @Test
  void aTurnFollowedForProgress_sendsItsUpdateFirst_andNothingElseWhenAnsweredAtOnce() throws Exception {
    AnswersAtOnce service = new AnswersAtOnce();
    try (FakeTemporalService fake = new FakeTemporalService(service)) {
      ControlPlaneClient client = ControlPlaneClient.newBuilder(fake.client).build();
      List<String> steps = new ArrayList<>();

      TurnResult r = client.turn(SID, "hello", steps::add);

      assertEquals("hi there", r.response());
      assertEquals(List.of("update turn"), service.calls, "the turn's only call is its Update");
      assertEquals(List.of("done"), steps);
      client.close();
    }
  }
}
