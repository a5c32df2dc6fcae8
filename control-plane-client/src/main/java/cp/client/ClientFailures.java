package cp.client;

import cp.model.FailureCode;
import cp.model.Refusal;
import cp.model.RootCause;
import cp.model.SessionSummary;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Error translation: what a Temporal failure means for a session, said as a {@link ClientException}
 * a program can branch on (its kind, session id and refusal) and a person can act on (its message).
 * Where the failure alone does not say enough (a bare "not found"), the session is described on the
 * service to tell an ended session from a closed, failed or forgotten one. Thread-safe.
 */
final class ClientFailures {
  /** How long reading a closed session's result (its summary, or its failure) may take: one read of a closed workflow. */
  static final Duration CLOSED_RESULT_WAIT = Duration.ofSeconds(5);

  private final WorkflowClient client;

  ClientFailures(WorkflowClient client) {
    this.client = client;
  }

  /** The service, for messages: "the Temporal service at host:port" or "the in-process Temporal service". */
  String service() {
    String t = client.getWorkflowServiceStubs().getOptions().getTarget();
    return t == null ? "the in-process Temporal service" : "the Temporal service at " + t;
  }

  /** A failed session's failure: the innermost application failure's type (or null), message and refusal record (or null). */
  record Failed(String type, String message, Refusal refusal) {}

  /** Why the session's workflow failed, when its last run closed as failed. */
  Optional<Failed> failed(String sessionId) {
    try {
      WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
      if (stub.describe().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED) {
        return Optional.empty();
      }
      stub.getResult(CLOSED_RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS, SessionSummary.class);
      return Optional.empty();
    } catch (WorkflowFailedException e) {
      String msg = RootCause.clientMessage(e);
      return msg == null ? Optional.empty()
          : Optional.of(new Failed(RootCause.applicationType(e).orElse(null), msg, refusalOf(e)));
    } catch (RuntimeException | TimeoutException e) {
      return Optional.empty();
    }
  }

  /**
   * A failed session, said as what happened: a start its workflow refused (issue 12: the input
   * named the wrong agent class, say) "could not start"; any other failure "has stopped".
   */
  ClientException stopped(String sessionId, Failed f, Throwable cause) {
    if (Refusal.START_REFUSED.equals(f.type())) {
      return new ClientException(ClientException.Kind.REFUSED, "session " + sessionId + " could not start: "
          + f.message(), cause, sessionId, f.refusal());
    }
    return new ClientException(ClientException.Kind.UNAVAILABLE, "session " + sessionId + " has stopped: "
        + f.message(), cause, sessionId, null);
  }

  /**
   * Why a session takes no turn: it ended (its workflow completed: the summary says when and why),
   * its workflow was closed otherwise (terminated, failed, timed out, cancelled), or the service
   * does not know it (never started, or a restarted service forgot it).
   */
  ClientException notFoundOrEnded(String sessionId) {
    WorkflowExecutionStatus status;
    Instant closedAt;
    WorkflowStub stub = client.newUntypedWorkflowStub(sessionId);
    try {
      var d = stub.describe();
      status = d.getStatus();
      closedAt = d.getCloseTime();
    } catch (RuntimeException e) {
      return notFound(sessionId);
    }
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
      try {
        SessionSummary s = stub.getResult(CLOSED_RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS, SessionSummary.class);
        if (s.endedAt() == null && closedAt != null) {
          s = new SessionSummary(s.sessionId(), s.agentClass(), s.turns(), s.tokensUsed(), s.tokenLimit(), s.cost(),
              s.endReason(), s.degradedTurns(), s.endNotRecorded(), closedAt.toString(), s.endDetail());
        }
        return new SessionEndedException(s);
      } catch (RuntimeException | TimeoutException e) {
        // Fall through: say what the description says.
      }
    }
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        || status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW
        || status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED) {
      // A failed session's own failure names its cause (notFound reads it).
      return notFound(sessionId);
    }
    String how = status.name().replace("WORKFLOW_EXECUTION_STATUS_", "").toLowerCase(Locale.ROOT).replace('_', ' ');
    return new ClientException(ClientException.Kind.NOT_FOUND, "session " + sessionId + " is closed on " + service()
        + ": its workflow was " + how + (closedAt == null ? "" : " at " + closedAt) + ", so it takes no more turns"
        + " (its ledgers keep the record); start a new session", null, sessionId, null);
  }

  /**
   * Not found on the service, or a session that is there but failed (its SESSION_START could not
   * be written, say): then its own failure, which names the cause (a ledger and the command that
   * repairs it), instead of the guess that the service was restarted.
   */
  ClientException notFound(String sessionId) {
    Optional<Failed> failed = failed(sessionId);
    if (failed.isPresent()) {
      return stopped(sessionId, failed.get(), null);
    }
    return new ClientException(ClientException.Kind.NOT_FOUND, "session " + sessionId
        + " not found or already ended on " + service() + " (a restarted service forgets"
        + " running sessions; their ledgers keep the record); start a new session", null, sessionId, null);
  }

  /** The session vanished from the service while one of its turns ran: the service lost its state. */
  ClientException lost(String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "session " + sessionId
        + " vanished from " + service() + " while its turn was running: the service was"
        + " restarted or lost its state (a development server keeps sessions in memory only). What the turn did is"
        + " in the session's ledgers; start a new session", null, sessionId, null);
  }

  /** The service went away (or stayed unreachable) while a turn waited. */
  ClientException serviceLost(String sessionId, String problem) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "lost " + service()
        + " while waiting for a turn on " + sessionId + " (" + problem + "). The turn may still finish once the"
        + " service is back; the session's ledgers record what it did", null, sessionId, null);
  }

  /**
   * A turn refused because the session has ended or is writing SESSION_END: waits a moment for the
   * session to close and says when and why it ended; the refusal as it came if it does not.
   */
  ClientException endedWhenClosed(String sessionId, WorkflowUpdateException refusal) {
    try {
      client.newUntypedWorkflowStub(sessionId).getResult(CLOSED_RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS,
          SessionSummary.class);
      return notFoundOrEnded(sessionId);
    } catch (RuntimeException | TimeoutException e) {
      return refusedOrFailed(sessionId, refusal);
    }
  }

  /** An Update the session refused, or one that failed because the session itself failed meanwhile. */
  ClientException refusedOrFailed(String sessionId, WorkflowUpdateException e) {
    Optional<Failed> failed = failed(sessionId);
    if (failed.isPresent()) {
      // The session itself failed while the Update waited (it could not write SESSION_START, or its
      // start was refused).
      return stopped(sessionId, failed.get(), e);
    }
    String msg = RootCause.clientMessage(e);
    return new ClientException(ClientException.Kind.REFUSED, msg == null ? "turn refused on " + sessionId : msg, e,
        sessionId, refusalOf(e));
  }

  /** An Update's failure: refused as ended (then said when and why), else refused or failed. */
  ClientException updateFailed(String sessionId, WorkflowUpdateException e) {
    return refusedAsEnded(e) ? endedWhenClosed(sessionId, e) : refusedOrFailed(sessionId, e);
  }

  static ClientException unavailable(String what, Throwable e, String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, what + ": " + RootCause.clientMessage(e), e,
        sessionId, null);
  }

  static ClientException interrupted(String what, String sessionId) {
    return new ClientException(ClientException.Kind.UNAVAILABLE, "interrupted while " + what, null, sessionId, null);
  }

  /** details[0] of the innermost refusal ({@code turn_refused} / {@code start_refused}) in {@code e}, or null. */
  static Refusal refusalOf(Throwable e) {
    ApplicationFailure af = RootCause.innermost(e, ApplicationFailure.class).orElse(null);
    if (af == null || !(Refusal.TURN_REFUSED.equals(af.getType()) || Refusal.START_REFUSED.equals(af.getType()))) {
      return null;
    }
    try {
      return af.getDetails().get(0, Refusal.class, Refusal.class);
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  /**
   * Whether an Update was refused because the session has ended or is ending: a {@code turn_refused}
   * whose code is {@code session_ended} (before issue 12, the failure type {@code session_ended}).
   */
  static boolean refusedAsEnded(Throwable e) {
    ApplicationFailure af = RootCause.innermost(e, ApplicationFailure.class).orElse(null);
    if (af == null) {
      return false;
    }
    if (FailureCode.SESSION_ENDED.is(af.getType())) {
      return true;
    }
    if (!Refusal.TURN_REFUSED.equals(af.getType())) {
      return false;
    }
    try {
      Refusal r = af.getDetails().get(0, Refusal.class, Refusal.class);
      return r != null && FailureCode.SESSION_ENDED.is(r.code());
    } catch (RuntimeException unreadable) {
      return false;
    }
  }

  /** Whether a gRPC failure with {@code code} is among {@code e}'s causes. */
  static boolean hasStatus(Throwable e, Status.Code code) {
    return RootCause.chain(e).anyMatch(t -> t instanceof StatusRuntimeException s && s.getStatus().getCode() == code);
  }

  /**
   * Why the service cannot be reached, when that is what {@code e} says: an unreachable or
   * timed-out call, a refused connection, or a long poll the closing server cancelled.
   */
  static Optional<String> serviceGone(Throwable e) {
    boolean gone = RootCause.chain(e).anyMatch(t -> {
      if (t instanceof StatusRuntimeException s) {
        Status.Code c = s.getStatus().getCode();
        return c == Status.Code.UNAVAILABLE || c == Status.Code.DEADLINE_EXCEEDED || c == Status.Code.CANCELLED;
      }
      return t instanceof java.util.concurrent.CancellationException || t instanceof java.net.ConnectException;
    });
    return gone ? Optional.of(RootCause.innermostMessage(e)) : Optional.empty();
  }
}
