package cp.contracts;

import java.util.List;
import java.util.Map;

/**
 * Checks agent classes added to a loaded catalog ({@link Catalog#withAgents}) as the loader checks
 * agent files, and adds the ones that pass.
 */
final class AgentAdditions {
  private final Problems problems = new Problems();
  private final CatalogChecks checks;

  AgentAdditions(SchemaValidator validator, CatalogRequirements requirements) {
    this.checks = new CatalogChecks(validator, problems, requirements);
  }

  /** Adds each agent (and its template) to the maps; returns every problem found, empty when all were added. */
  List<String> add(List<AddedAgent> added, Map<String, Loaded<AgentConfig>> agents,
      Map<String, Loaded<AttentionTemplate>> templates) {
    for (AddedAgent a : added) {
      String file = a.file().name();
      String agentClass = a.config().agentClass();
      Loaded<AgentConfig> existing = agents.get(agentClass);
      if (existing != null) {
        problems.add(file, "agent_class", agentClass + " is already defined in " + existing.file().name()
            + "; an agent class is defined once (rename it, or remove one of the two files)");
        continue;
      }
      if (a.template().isPresent()) {
        AttentionTemplate t = a.template().get();
        Loaded<AttentionTemplate> other = templates.get(t.templateId());
        if (other != null) {
          problems.add(file, "attention", "its attention template " + t.templateId() + " is already defined in "
              + other.file().name());
          continue;
        }
        Loaded<AttentionTemplate> loadedTemplate = new Loaded<>(t, a.file(), t.version());
        checks.attentionTemplate(loadedTemplate);
        templates.put(t.templateId(), loadedTemplate);
      }
      Loaded<AttentionTemplate> template = templates.get(a.config().attentionTemplateId());
      if (template == null) {
        problems.add(file, "attention", "attention template " + a.config().attentionTemplateId()
            + " is not in the catalog (known: " + String.join(", ", templates.keySet()) + ")");
        continue;
      }
      if (!template.value().appliesTo().appliesTo(agentClass)) {
        problems.add(file, "attention", template.value().templateId() + " applies to agent classes "
            + template.value().appliesTo().agentClass() + ", not " + agentClass);
        continue;
      }
      String sameId = agents.values().stream().filter(l -> l.value().agentId().equals(a.config().agentId()))
          .map(l -> l.file().name()).findFirst().orElse(null);
      if (sameId != null) {
        problems.add(file, "agent_class", "its agent id " + a.config().agentId() + " is also the id of the agent in "
            + sameId + "; choose another class name");
        continue;
      }
      Loaded<AgentConfig> loaded = new Loaded<>(a.config(), a.file(), a.config().version());
      checks.agent(loaded);
      agents.put(agentClass, loaded);
    }
    return problems.lines();
  }
}
