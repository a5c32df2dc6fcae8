package cp.client;

import cp.model.RootCause;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowClient;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Looks at a session while a client waits for one of its turns: is it still on the Temporal
 * service, gone from it (the service was restarted or lost its state), or is the service
 * unreachable, and for how long.
 *
 * <p>The SDK retries an unreachable service on its own for about a minute and reports a lost
 * session only as a bare "not found"; this turns both into something a user can act on, in
 * bounded time.
 */
final class SessionWatch {
  /** One look takes at most this long. */
  static final Duration RPC_TIMEOUT = Duration.ofSeconds(2);

  /** What one look found. */
  enum Seen { PRESENT, GONE, UNREACHABLE }

  private final WorkflowClient client;
  private final String sessionId;
  private final LongSupplier nanoTime;
  private long unreachableSince = -1;
  private String problem = "";

  SessionWatch(WorkflowClient client, String sessionId, LongSupplier nanoTime) {
    this.client = client;
    this.sessionId = sessionId;
    this.nanoTime = nanoTime;
  }

  /**
   * Describes the session once, with one bounded RPC: the SDK's own stubs retry an unreachable
   * service for about a minute, which is exactly the wait this watch exists to cut short.
   */
  Seen check() {
    try {
      client.getWorkflowServiceStubs().blockingStub()
          .withDeadlineAfter(RPC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
              .setNamespace(client.getOptions().getNamespace())
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(sessionId))
              .build());
      unreachableSince = -1;
      return Seen.PRESENT;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Seen.GONE;
      }
      return unreachable(e);
    } catch (RuntimeException e) {
      return unreachable(e);
    }
  }

  private Seen unreachable(RuntimeException e) {
    if (unreachableSince < 0) {
      unreachableSince = nanoTime.getAsLong();
    }
    problem = RootCause.clientMessage(e);
    return Seen.UNREACHABLE;
  }

  /** How long the service has been unreachable without a break (zero while it answers). */
  Duration unreachableFor() {
    return unreachableSince < 0 ? Duration.ZERO : Duration.ofNanos(nanoTime.getAsLong() - unreachableSince);
  }

  /** The last failure's message, for the user. */
  String problem() {
    return problem;
  }
}
