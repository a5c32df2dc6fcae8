package cp.contracts;

import java.util.Objects;
import java.util.Optional;

/**
 * An agent class defined outside the catalog's files (an agent definition in {@code CP_AGENTS_DIR}),
 * to add with {@link Catalog#withAgents}.
 *
 * @param config the agent configuration, as an agent file would give it
 * @param template its own attention template, or empty when the catalog already holds the one
 *     {@code config} names
 * @param file the file it came from, as messages name it (e.g. {@code weather.yaml})
 */
public record AddedAgent(AgentConfig config, Optional<AttentionTemplate> template, ResourceFile file) {
  public AddedAgent {
    Objects.requireNonNull(config, "config");
    template = template == null ? Optional.empty() : template;
    Objects.requireNonNull(file, "file");
  }
}
