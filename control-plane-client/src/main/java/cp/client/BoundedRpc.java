package cp.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.query.v1.WorkflowQuery;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowResponse;
import io.temporal.client.WorkflowClient;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One Query or one Describe, each a single RPC with a deadline of {@link SessionWatch#RPC_TIMEOUT}:
 * the SDK's own stubs retry an unreachable service for about a minute, which is exactly the wait
 * a client following a turn must not make. Thread-safe.
 */
final class BoundedRpc {
  private final WorkflowClient client;

  BoundedRpc(WorkflowClient client) {
    this.client = client;
  }

  /**
   * Query {@code queryType} on the workflow's current run: empty when the workflow does not exist
   * or answered nothing; a StatusRuntimeException when the service could not answer in time.
   */
  <T> Optional<T> query(String workflowId, String queryType, Class<T> type) {
    return query(workflowId, queryType, type, new Object[0]);
  }

  /** The same, with the Query's arguments. */
  <T> Optional<T> query(String workflowId, String queryType, Class<T> type, Object... args) {
    WorkflowQuery.Builder q = WorkflowQuery.newBuilder().setQueryType(queryType);
    if (args.length > 0) {
      client.getOptions().getDataConverter().toPayloads(args).ifPresent(q::setQueryArgs);
    }
    QueryWorkflowResponse r;
    try {
      r = client.getWorkflowServiceStubs().blockingStub()
          .withDeadlineAfter(SessionWatch.RPC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .queryWorkflow(QueryWorkflowRequest.newBuilder()
              .setNamespace(client.getOptions().getNamespace())
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
              .setQuery(q)
              .build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
    if (!r.hasQueryResult()) {
      return Optional.empty();
    }
    return Optional.ofNullable(client.getOptions().getDataConverter()
        .fromPayloads(0, Optional.of(r.getQueryResult()), type, type));
  }

  /** The workflow's status; a StatusRuntimeException (NOT_FOUND among others) when it cannot be described. */
  WorkflowExecutionStatus status(String workflowId) {
    return client.getWorkflowServiceStubs().blockingStub()
        .withDeadlineAfter(SessionWatch.RPC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
            .setNamespace(client.getOptions().getNamespace())
            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
            .build())
        .getWorkflowExecutionInfo().getStatus();
  }
}
