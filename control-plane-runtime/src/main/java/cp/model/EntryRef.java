package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/** A reference to one ledger entry: the tier ({@code hot}, {@code ho1}, ...) and its entry id. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EntryRef(String tier, String entryId) {
  public EntryRef {
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(entryId, "entry_id");
  }

  public static EntryRef hot(String id) {
    return new EntryRef("hot", id);
  }

  public static EntryRef ho1(String id) {
    return new EntryRef("ho1", id);
  }
}
