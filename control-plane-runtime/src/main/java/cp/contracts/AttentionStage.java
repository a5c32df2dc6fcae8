package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One step of an attention pipeline: a unique name, a type, and that type's settings.
 *
 * @param stage the stage's name, unique within its template (e.g. {@code session_conversation})
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AttentionStage(String stage, StageType type, StageConfig config) {

  public AttentionStage {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(type, "type");
    config = config == null ? new StageConfig(null, null, null, null, null, null, null, null) : config;
  }
}
