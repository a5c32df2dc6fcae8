package cp.worker;

import cp.contracts.ArtifactKind;
import cp.contracts.CatalogEntryNotFoundException;
import cp.model.RootCause;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the operator, once per agent class, that this worker was asked to run a class it has no
 * definition of (a session started while another worker, or this one with other definitions, knew
 * it): its activities fail, and the user reads "temporarily unavailable … What failed: agent class
 * WEATHER not found", while before the worker's own log said nothing. The warning names the class,
 * the classes this worker knows and where it reads definitions from. The failure itself is
 * unchanged. Thread-safe: activities run on many threads.
 */
final class MissingAgentClasses extends WorkerInterceptorBase {
  private static final Logger LOG = LoggerFactory.getLogger(MissingAgentClasses.class);

  private final String definitionsFrom;
  private final List<String> known;
  private final String taskQueue;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /**
   * @param definitionsFrom where this worker reads agent definitions, in words
   *     ({@code CP_AGENTS_DIR=/srv/agents}, or that it is not set), for the operator
   * @param known the agent classes this worker knows
   */
  MissingAgentClasses(String definitionsFrom, List<String> known, String taskQueue) {
    this.definitionsFrom = Objects.requireNonNull(definitionsFrom, "definitionsFrom");
    this.known = List.copyOf(known);
    this.taskQueue = Objects.requireNonNull(taskQueue, "taskQueue");
  }

  /** Where {@code config}'s worker reads agent definitions from, in words. */
  static String definitionsFrom(PlaneConfig config) {
    String dir = config.agentsDir().map(d -> cp.agents.AgentDefinitions.VARIABLE + "=" + d)
        .orElse(cp.agents.AgentDefinitions.VARIABLE + " (not set)");
    int inCode = config.extensions().definitions().size();
    return inCode == 0 ? dir : dir + " and " + inCode + " definition(s) registered in code";
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      @Override
      public ActivityOutput execute(ActivityInput input) {
        try {
          return super.execute(input);
        } catch (RuntimeException e) {
          RootCause.first(e, CatalogEntryNotFoundException.class).filter(m -> m.kind() == ArtifactKind.AGENT)
              .ifPresent(m -> warnOnce(m.id()));
          throw e;
        }
      }
    };
  }

  private void warnOnce(String agentClass) {
    if (agentClass == null || !warned.add(agentClass)) {
      return;
    }
    LOG.warn("agent class {} is not defined on this worker (it knows {}), so the turns of its sessions fail here as"
        + " unavailable; this worker reads agent definitions from {}: give every worker of task queue {} the same"
        + " definitions and restart this one", agentClass, String.join(", ", known), definitionsFrom, taskQueue);
  }
}
