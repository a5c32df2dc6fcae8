package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.ledger.Tier;
import java.util.List;
import java.util.Optional;

/**
 * The settings of one attention stage; which fields are set depends on the stage type.
 *
 * <p>The attention template schema guarantees the combination: {@code tier_select} sets
 * {@code tiers}; {@code ledger_query} sets {@code tier}, {@code maxEntries}, {@code recency}
 * and optionally {@code eventType}; {@code structuring} sets {@code strategy} and
 * {@code maxTokens}; {@code halting} sets {@code minFragments}.
 *
 * @param recency {@link #RECENCY_SESSION} (only the current session's entries) or {@link #RECENCY_ALL}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StageConfig(
    List<String> tiers,
    String tier,
    String eventType,
    Integer maxEntries,
    String recency,
    String strategy,
    Integer maxTokens,
    Integer minFragments) {

  public static final String RECENCY_SESSION = "session";
  public static final String RECENCY_ALL = "all";

  public StageConfig {
    tiers = tiers == null ? null : List.copyOf(tiers);
  }

  /** The selected tiers of a {@code tier_select} stage, as ledger tiers (empty for other stages). */
  public List<Tier> selectedTiers() {
    return tiers == null ? List.of() : tiers.stream().map(Tier::parse).toList();
  }

  /** The tier a {@code ledger_query} stage reads. */
  public Optional<Tier> ledgerTier() {
    return Optional.ofNullable(tier).map(Tier::parse);
  }

  public boolean sessionOnly() {
    return RECENCY_SESSION.equals(recency);
  }
}
