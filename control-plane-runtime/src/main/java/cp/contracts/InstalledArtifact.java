package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One installed file of the catalog, as the {@code list_packages} tool reports it.
 *
 * @param id the artifact's id (contract id, prompt pack id, agent class, template id, schema name)
 * @param file the file's name relative to its source, e.g. {@code contracts/PRC-CLASSIFY-001.json}
 * @param sha256 lowercase hex SHA-256 of the file's bytes as loaded
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record InstalledArtifact(ArtifactKind kind, String id, String version, String file, String sha256) {
  public InstalledArtifact {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sha256, "sha256");
  }
}
