package cp.activities;

import cp.contracts.ArtifactKind;
import cp.contracts.Catalog;
import cp.model.AgentClassInfo;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** Reads the agent classes of the worker's catalog: no I/O beyond memory, no secret (no env, no model key). */
public final class CatalogActivitiesImpl implements CatalogActivities {
  private final Catalog catalog;

  public CatalogActivitiesImpl(Catalog catalog) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
  }

  @Override
  public List<AgentClassInfo> agentClasses() {
    Set<String> defined = catalog.artifacts().stream().filter(a -> a.kind() == ArtifactKind.AGENT_DEFINITION)
        .map(a -> a.id()).collect(Collectors.toSet());
    return catalog.agents().stream().map(a -> new AgentClassInfo(a.agentClass(), a.description(),
        defined.contains(a.agentClass()) ? AgentClassInfo.DEFINED : AgentClassInfo.BUILT_IN, a.toolIds())).toList();
  }
}
