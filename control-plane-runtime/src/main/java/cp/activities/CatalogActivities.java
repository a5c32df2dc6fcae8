package cp.activities;

import cp.model.AgentClassInfo;
import io.temporal.activity.ActivityInterface;
import java.util.List;

/** What a worker's catalog holds, for clients that ask ({@link cp.workflows.AgentClassesWorkflow}). */
@ActivityInterface(namePrefix = "Catalog")
public interface CatalogActivities {
  /** The agent classes of this worker's catalog, sorted by class. */
  List<AgentClassInfo> agentClasses();
}
