package cp.workflows;

import cp.activities.CatalogActivities;
import cp.model.AgentClassInfo;
import io.temporal.workflow.Workflow;
import java.util.List;

/** Answers {@link AgentClassesWorkflow} from the catalog of the worker that runs it: one local activity. */
public final class AgentClassesWorkflowImpl implements AgentClassesWorkflow {
  private final CatalogActivities catalog = Workflow.newLocalActivityStub(CatalogActivities.class);

  @Override
  public List<AgentClassInfo> list() {
    return catalog.agentClasses();
  }
}
