package cp.workflows;

import cp.model.AgentClassInfo;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * The agent classes the plane's workers know (issue 22): built in and defined. A client (ours or a
 * foreign one) starts a workflow of type {@value #TYPE} on the plane's task queue with any id and
 * no input; a worker answers with its catalog's classes and the workflow ends. The same question
 * any session's start is checked against, asked without starting a session.
 */
@WorkflowInterface
public interface AgentClassesWorkflow {
  /** The workflow type a foreign client starts. */
  String TYPE = "AgentClasses";
  /** The prefix of the workflow ids our client uses (any id works). */
  String ID_PREFIX = "agent-classes-";

  @WorkflowMethod(name = TYPE)
  List<AgentClassInfo> list();
}
