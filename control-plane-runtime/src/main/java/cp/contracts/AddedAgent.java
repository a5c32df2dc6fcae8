package cp.contracts;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * An agent class defined outside the catalog's files (an agent definition in {@code CP_AGENTS_DIR}),
 * to add with {@link Catalog#withAgents}.
 *
 * @param config the agent configuration, as an agent file would give it
 * @param template its own attention template, or empty when the catalog already holds the one
 *     {@code config} names
 * @param file the file it came from, as messages name it (e.g. {@code weather.yaml}), with the
 *     bytes it was read from (the catalog lists their SHA-256 as an artifact)
 * @param location the file on disk, which the integrity gate re-reads; empty for a definition
 *     registered in code
 * @param model its own model, output bound and output schema ({@link AgentModel#WORKER_DEFAULT}: none)
 */
public record AddedAgent(AgentConfig config, Optional<AttentionTemplate> template, ResourceFile file,
    Optional<Path> location, AgentModel model) {
  /** What an artifact of a definition registered in code names as its file. */
  public static final String IN_CODE = "registered in code: ";

  public AddedAgent {
    Objects.requireNonNull(config, "config");
    template = template == null ? Optional.empty() : template;
    Objects.requireNonNull(file, "file");
    location = location == null ? Optional.empty() : location;
    model = model == null ? AgentModel.WORKER_DEFAULT : model;
  }

  public AddedAgent(AgentConfig config, Optional<AttentionTemplate> template, ResourceFile file) {
    this(config, template, file, Optional.empty(), AgentModel.WORKER_DEFAULT);
  }

  /** Its entry in {@link Catalog#artifacts()}: the definition's path (or where it was registered) and hash. */
  InstalledArtifact artifact() {
    return new InstalledArtifact(ArtifactKind.AGENT_DEFINITION, config.agentClass(), config.version(),
        location.map(Path::toString).orElse(IN_CODE + file.name()), file.sha256());
  }
}
