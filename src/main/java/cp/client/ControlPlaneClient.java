package cp.client;

import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.workflows.CpSearchAttributes;
import cp.workflows.SessionWorkflow;
import cp.workflows.TurnText;
import cp.workflows.WorkOrderIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ApplicationFailure;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The small facade a program uses: start a session, send turns, read its state, end it.
 *
 * <p>A turn is an Update that waits for its result, however long the turn takes and even if the
 * worker is restarted meanwhile. Every turn carries an update id, so a call retried after the
 * session continued as new is not run twice. Messages are checked here first: an empty or
 * oversized message never reaches Temporal (whose payload limit is 2 MB).
 */
public final class ControlPlaneClient {
  /** Far under Temporal's 2 MB payload error even after JSON escaping; the agent's own limit is smaller. */
  public static final int MAX_MESSAGE_BYTES = 512 * 1024;
  /** How often a turn is re-sent (same update id) when the session's run changes under it. */
  static final int RUN_CHANGE_RETRIES = 5;

  private final WorkflowClient client;
  private final String taskQueue;
  private final Predicate<String> knownAgent;
  private final List<String> agentClasses;
  private final int continueAsNewAfterTurns;
  private final SecureRandom random = new SecureRandom();

  public ControlPlaneClient(WorkflowClient client, String taskQueue, List<String> agentClasses,
      int continueAsNewAfterTurns) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.agentClasses = List.copyOf(agentClasses);
    this.knownAgent = a -> this.agentClasses.contains(a);
    this.continueAsNewAfterTurns = continueAsNewAfterTurns;
  }

  /** Starts a session for an agent class and returns its id ({@code SES-} + 8 hex). */
  public String startSession(String agentClass) {
    String cls = agentClass == null ? "" : agentClass.trim().toUpperCase(Locale.ROOT);
    if (!knownAgent.test(cls)) {
      throw new ClientException(ClientException.Kind.REFUSED, "unknown agent class '" + agentClass + "' (known: "
          + String.join(", ", agentClasses) + ")");
    }
    byte[] b = new byte[4];
    random.nextBytes(b);
    String sessionId = "SES-" + HexFormat.of().formatHex(b);
    SessionWorkflow stub = client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(sessionId)
        .setTaskQueue(taskQueue)
        .setTypedSearchAttributes(SearchAttributes.newBuilder()
            .set(CpSearchAttributes.SESSION_ID, sessionId)
            .set(CpSearchAttributes.AGENT_CLASS, cls)
            .set(CpSearchAttributes.TURN, 0L)
            .build())
        .build());
    try {
      WorkflowClient.start(stub::run, new SessionInput(sessionId, cls, null, continueAsNewAfterTurns));
    } catch (RuntimeException e) {
      throw unavailable("cannot start a session", e);
    }
    return sessionId;
  }

  /** Runs one turn and waits for its result. */
  public TurnResult turn(String sessionId, String text) {
    checkSessionId(sessionId);
    TurnText.problem(text, MAX_MESSAGE_BYTES).ifPresent(p -> {
      throw new ClientException(ClientException.Kind.REFUSED, "message refused: " + p);
    });
    String updateId = UUID.randomUUID().toString();
    for (int attempt = 0; ; attempt++) {
      WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
      try {
        return stub.startUpdate(UpdateOptions.newBuilder(TurnResult.class)
            .setUpdateName(SessionWorkflow.TURN)
            .setUpdateId(updateId)
            .setWaitForStage(WorkflowUpdateStage.COMPLETED)
            .build(), new TurnRequest(text)).getResult();
      } catch (WorkflowUpdateException e) {
        throw refusedOrFailed(sessionId, e);
      } catch (WorkflowNotFoundException e) {
        if (attempt < RUN_CHANGE_RETRIES && isRunning(sessionId)) {
          continue;
        }
        throw notFound(sessionId);
      } catch (WorkflowException e) {
        throw unavailable("turn on " + sessionId + " failed", e);
      } catch (StatusRuntimeException e) {
        throw unavailable("turn on " + sessionId + " failed", e);
      }
    }
  }

  /** Ends a session: SESSION_END is written and the summary returned. */
  public SessionSummary end(String sessionId) {
    checkSessionId(sessionId);
    try {
      return client.newWorkflowStub(SessionWorkflow.class, sessionId).end();
    } catch (WorkflowUpdateException e) {
      throw refusedOrFailed(sessionId, e);
    } catch (WorkflowNotFoundException e) {
      throw notFound(sessionId);
    } catch (WorkflowException | StatusRuntimeException e) {
      throw unavailable("end of " + sessionId + " failed", e);
    }
  }

  /** The session's state (its Query), or NOT_FOUND. */
  public SessionState state(String sessionId) {
    checkSessionId(sessionId);
    try {
      return client.newWorkflowStub(SessionWorkflow.class, sessionId).state();
    } catch (WorkflowNotFoundException e) {
      throw notFound(sessionId);
    } catch (WorkflowException | StatusRuntimeException e) {
      if (e instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw notFound(sessionId);
      }
      throw unavailable("state of " + sessionId + " unavailable", e);
    }
  }

  /** Whether the session's workflow is open (a run may be between continue-as-new runs). */
  public boolean isRunning(String sessionId) {
    try {
      var d = client.newUntypedWorkflowStub(sessionId).describe();
      return d.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
          || d.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void checkSessionId(String sessionId) {
    if (sessionId == null || !WorkOrderIds.SESSION_ID.matcher(sessionId).matches()) {
      throw new ClientException(ClientException.Kind.REFUSED, "'" + sessionId
          + "' is not a session id (expected SES- and 8 hex digits, e.g. SES-1a2b3c4d)");
    }
  }

  private static ClientException notFound(String sessionId) {
    return new ClientException(ClientException.Kind.NOT_FOUND, "session " + sessionId
        + " not found or already ended (start one with 'cpctl session start')");
  }

  private static ClientException refusedOrFailed(String sessionId, WorkflowUpdateException e) {
    String msg = innermostMessage(e);
    return new ClientException(ClientException.Kind.REFUSED, msg == null ? "turn refused on " + sessionId : msg, e);
  }

  private static ClientException unavailable(String what, Throwable e) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, what + ": " + innermostMessage(e), e);
  }

  /** The message of the innermost application failure, else the innermost cause. */
  static String innermostMessage(Throwable e) {
    String msg = e.getMessage();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure af) {
        msg = af.getOriginalMessage();
      } else if (t.getCause() == null && t.getMessage() != null && !(e instanceof WorkflowException)) {
        msg = t.getMessage();
      }
    }
    return msg;
  }
}
