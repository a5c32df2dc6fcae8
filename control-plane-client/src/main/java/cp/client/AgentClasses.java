package cp.client;

import cp.model.AgentClassInfo;
import cp.workflows.AgentClassesWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Asks the plane's workers which agent classes they know (issue 22): runs the workflow
 * {@value AgentClassesWorkflow#TYPE} on the task queue and returns its answer, built-in and defined
 * classes alike. A foreign client does the same with its own SDK (docs/client-contract.md).
 */
public final class AgentClasses {
  private AgentClasses() {}

  /**
   * The classes a worker of {@code taskQueue} knows.
   *
   * @param timeout how long to wait for a worker to answer; the workflow ends unanswered after it
   * @throws ClientException UNAVAILABLE when no worker answers within {@code timeout}
   */
  public static List<AgentClassInfo> ask(WorkflowClient client, String taskQueue, Duration timeout) {
    Objects.requireNonNull(client, "client");
    String id = AgentClassesWorkflow.ID_PREFIX + UUID.randomUUID();
    AgentClassesWorkflow stub = client.newWorkflowStub(AgentClassesWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(taskQueue).setWorkflowId(id).setWorkflowExecutionTimeout(timeout).build());
    try {
      return stub.list();
    } catch (RuntimeException e) {
      throw new ClientException(ClientException.Kind.UNAVAILABLE, "no worker of task queue '" + taskQueue
          + "' said which agent classes it knows within " + timeout.toSeconds() + " s (is a worker running?)", e,
          null, null);
    }
  }
}
