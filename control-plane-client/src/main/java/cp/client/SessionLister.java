package cp.client;

import cp.model.RootCause;
import cp.workflows.CpSearchAttributes;
import io.grpc.Status;
import io.temporal.api.filter.v1.WorkflowTypeFilter;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which sessions the service has: Temporal's visibility store, queried by workflow type (and the
 * caller's filter). For the open sessions alone it also works on a service without visibility
 * queries (the Temporal SDK's in-process test service, what {@code cpctl dev-server} runs), through
 * the older list of open executions. Thread-safe.
 */
final class SessionLister {
  /** The session workflow's type, as visibility lists it. */
  static final String SESSION_WORKFLOW_TYPE = "SessionWorkflow";
  /** Executions per page when the older list of open executions is read. */
  static final int OPEN_PAGE_SIZE = 100;

  private final WorkflowClient client;
  private final ClientFailures failures;

  SessionLister(WorkflowClient client, ClientFailures failures) {
    this.client = client;
    this.failures = failures;
  }

  /** See {@link ControlPlaneClient#list(String, int)}. */
  List<SessionListing> list(String filter, int limit) {
    if (limit < 1) {
      throw new ClientException(ClientException.Kind.REFUSED, "list limit must be 1 or more; got " + limit);
    }
    String query = "WorkflowType='" + SESSION_WORKFLOW_TYPE + "'"
        + (filter == null || filter.isBlank() ? "" : " AND (" + filter + ")");
    try {
      return client.listExecutions(query).limit(limit).map(SessionLister::listing).toList();
    } catch (RuntimeException e) {
      if (ClientFailures.hasStatus(e, Status.Code.UNIMPLEMENTED)) {
        throw new ClientException(ClientException.Kind.UNSUPPORTED, "cannot list sessions: " + failures.service()
            + " has no visibility queries (ListWorkflowExecutions is not implemented there, as on the Temporal"
            + " SDK's in-process test service); a Temporal server lists them", e);
      }
      if (ClientFailures.hasStatus(e, Status.Code.INVALID_ARGUMENT)) {
        throw new ClientException(ClientException.Kind.REFUSED, "the list filter '" + filter + "' is not a"
            + " visibility query the service accepts: " + RootCause.clientMessage(e), e);
      }
      throw ClientFailures.unavailable("cannot list sessions", e, null);
    }
  }

  /**
   * The ids of the sessions whose workflow is open on the service, newest first, at most
   * {@code limit}: from visibility queries where the service has them, else from its list of open
   * executions (which every Temporal service answers).
   */
  List<String> openSessionIds(int limit) {
    try {
      return list("ExecutionStatus='Running'", limit).stream().map(SessionListing::sessionId).toList();
    } catch (ClientException e) {
      if (e.kind() != ClientException.Kind.UNSUPPORTED) {
        throw e;
      }
    }
    Set<String> ids = new LinkedHashSet<>();
    com.google.protobuf.ByteString page = com.google.protobuf.ByteString.EMPTY;
    try {
      do {
        ListOpenWorkflowExecutionsResponse r = client.getWorkflowServiceStubs().blockingStub()
            .listOpenWorkflowExecutions(ListOpenWorkflowExecutionsRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .setMaximumPageSize(OPEN_PAGE_SIZE)
                .setNextPageToken(page)
                .setTypeFilter(WorkflowTypeFilter.newBuilder().setName(SESSION_WORKFLOW_TYPE))
                .build());
        for (WorkflowExecutionInfo info : r.getExecutionsList()) {
          if (ids.size() < limit) {
            ids.add(info.getExecution().getWorkflowId());
          }
        }
        page = r.getNextPageToken();
      } while (!page.isEmpty() && ids.size() < limit);
    } catch (RuntimeException e) {
      throw ClientFailures.unavailable("cannot list the open sessions on " + failures.service(), e, null);
    }
    return new ArrayList<>(ids);
  }

  private static SessionListing listing(WorkflowExecutionMetadata m) {
    var sa = m.getTypedSearchAttributes();
    return new SessionListing(m.getExecution().getWorkflowId(), sa.get(CpSearchAttributes.AGENT_CLASS),
        m.getStatus().name().replace("WORKFLOW_EXECUTION_STATUS_", ""), sa.get(CpSearchAttributes.TURN),
        m.getStartTime(), m.getCloseTime());
  }
}
