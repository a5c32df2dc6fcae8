package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * How HO2 assembles an agent's context before synthesis: a stage pipeline, a budget, a fallback.
 *
 * <p>The pipeline is deterministic (no LLM call): it selects tiers, queries their ledgers,
 * orders and trims what it found, and decides whether to proceed.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AttentionTemplate(
    String templateId,
    String version,
    String description,
    AppliesTo appliesTo,
    List<AttentionStage> pipeline,
    Budget budget,
    Fallback fallback) {

  public AttentionTemplate {
    Objects.requireNonNull(templateId, "template_id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(fallback, "fallback");
    description = description == null ? "" : description;
    appliesTo = appliesTo == null ? new AppliesTo(null, null) : appliesTo;
    pipeline = List.copyOf(Objects.requireNonNull(pipeline, "pipeline"));
  }

  /** The stages of one type, in pipeline order. */
  public List<AttentionStage> stages(StageType type) {
    return pipeline.stream().filter(s -> s.type() == type).toList();
  }

  /** Which agent classes (and frameworks) may use the template. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record AppliesTo(List<String> agentClass, List<String> frameworkId) {
    public AppliesTo {
      agentClass = agentClass == null ? List.of() : List.copyOf(agentClass);
      frameworkId = frameworkId == null ? List.of() : List.copyOf(frameworkId);
    }

    /** True when {@code agentClass} is listed, or when no class is listed at all. */
    public boolean appliesTo(String agentClassName) {
      return agentClass.isEmpty() || agentClass.contains(agentClassName);
    }
  }

  /**
   * Limits of one assembly.
   *
   * @param maxContextTokens size of the assembled context, estimated in tokens
   * @param maxQueries ledger queries one assembly may run
   * @param timeoutMs wall-clock limit of one assembly
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Budget(int maxContextTokens, int maxQueries, long timeoutMs) {}

  /**
   * What to do when assembly runs out of time or finds nothing.
   *
   * @param onTimeout {@link #RETURN_PARTIAL} or {@link #FAIL}
   * @param onEmpty {@link #PROCEED_EMPTY} or {@link #FAIL}
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Fallback(String onTimeout, String onEmpty) {
    public static final String RETURN_PARTIAL = "return_partial";
    public static final String PROCEED_EMPTY = "proceed_empty";
    public static final String FAIL = "fail";
  }
}
