package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * The text of a prompt contract: system and user templates with {@code {{name}}} placeholders.
 *
 * <p>{@code variables} names the input-context fields the templates use; the built-ins
 * ({@link PromptRenderer#BUILT_INS}) are always available and are not declared. See
 * {@link PromptRenderer} for how placeholders are filled.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PromptPack(
    String promptPackId, String version, String description, String system, String user, List<String> variables) {

  public PromptPack {
    Objects.requireNonNull(promptPackId, "prompt_pack_id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(user, "user");
    description = description == null ? "" : description;
    variables = variables == null ? List.of() : List.copyOf(variables);
  }
}
