package cp.client;

import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.workflows.SessionWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A session's own life as a client drives it: start it (a fresh id, the agent class checked
 * first), read its state, end it, ask whether it is open. Thread-safe.
 */
final class SessionCalls {
  /** An agent class as the catalog names it (client contract, start input). */
  static final Pattern AGENT_CLASS = cp.model.AgentClassName.PATTERN;

  private final WorkflowClient client;
  private final ClientFailures failures;
  private final String taskQueue;
  private final List<String> agentClasses;
  private final int continueAsNewAfterTurns;
  private final SecureRandom random = new SecureRandom();

  SessionCalls(WorkflowClient client, ClientFailures failures, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns) {
    this.client = client;
    this.failures = failures;
    this.taskQueue = taskQueue;
    this.agentClasses = List.copyOf(agentClasses);
    this.continueAsNewAfterTurns = continueAsNewAfterTurns;
  }

  /** See {@link ControlPlaneClient#startSession}. */
  String start(String agentClass, String tenant) {
    String t = cp.model.TenantId.orDefault(tenant);
    cp.model.TenantId.problem(t).ifPresent(why -> {
      throw new ClientException(ClientException.Kind.REFUSED, why);
    });
    String cls = agentClass == null ? "" : agentClass.trim().toUpperCase(Locale.ROOT);
    if (!agentClasses.isEmpty() && !agentClasses.contains(cls)) {
      throw new ClientException(ClientException.Kind.REFUSED, "unknown agent class '" + agentClass + "' (known: "
          + String.join(", ", agentClasses) + ")");
    }
    if (!AGENT_CLASS.matcher(cls).matches()) {
      throw new ClientException(ClientException.Kind.REFUSED, "'" + agentClass + "' is not an agent class: agent"
          + " classes are letters, digits and '_' as the catalog names them, e.g. ADMIN");
    }
    String sessionId = SessionIds.mint(random);
    // No search attributes here: the session sets its own (CpSessionId, CpAgentClass, CpTurn), so
    // a session any client started can be found the same way.
    SessionWorkflow stub = client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(sessionId)
        .setTaskQueue(taskQueue)
        .build());
    try {
      WorkflowClient.start(stub::run, new SessionInput(sessionId, cls, null, continueAsNewAfterTurns)
          .withTenant(tenant == null || tenant.isBlank() ? null : t));
    } catch (RuntimeException e) {
      throw ClientFailures.unavailable("cannot start a session", e, null);
    }
    return sessionId;
  }

  /** See {@link ControlPlaneClient#end}. */
  SessionSummary end(String sessionId) {
    return onSession(sessionId, "end of " + sessionId + " failed",
        () -> client.newWorkflowStub(SessionWorkflow.class, sessionId).end());
  }

  /** See {@link ControlPlaneClient#state}. */
  SessionState state(String sessionId) {
    return onSession(sessionId, "state of " + sessionId + " unavailable", () -> {
      SessionState s = client.newWorkflowStub(SessionWorkflow.class, sessionId).state();
      if (s == null) {
        Optional<ClientFailures.Failed> failed = failures.failed(sessionId);
        if (failed.isPresent()) {
          throw failures.stopped(sessionId, failed.get(), null);
        }
      }
      return s;
    });
  }

  /** One call on the session's workflow, its failures said as what they mean for the session. */
  private <T> T onSession(String sessionId, String failedAs, Supplier<T> call) {
    try {
      return call.get();
    } catch (WorkflowUpdateException e) {
      throw failures.updateFailed(sessionId, e);
    } catch (WorkflowNotFoundException e) {
      throw failures.notFoundOrEnded(sessionId);
    } catch (WorkflowException | StatusRuntimeException e) {
      if (ClientFailures.hasStatus(e, Status.Code.NOT_FOUND)) {
        throw failures.notFoundOrEnded(sessionId);
      }
      throw ClientFailures.unavailable(failedAs, e, sessionId);
    }
  }

  /** See {@link ControlPlaneClient#isRunning}. */
  boolean isRunning(String sessionId) {
    try {
      var d = client.newUntypedWorkflowStub(sessionId).describe();
      return d.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
          || d.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
