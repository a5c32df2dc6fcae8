package cp.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/** The kinds of stage an attention pipeline is built from. */
public enum StageType {
  /** Chooses which tier ledgers later stages may read. */
  TIER_SELECT,
  /** Reads the most recent matching entries of one tier ledger. */
  LEDGER_QUERY,
  /** Orders the collected fragments and trims them to a token budget. */
  STRUCTURING,
  /** Decides whether enough was found to stop (or to apply the on_empty fallback). */
  HALTING;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static StageType fromWire(String value) {
    for (StageType t : values()) {
      if (t.wireName().equals(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown attention stage type '" + value + "' (known: "
        + String.join(", ", Arrays.stream(values()).map(StageType::wireName).toList()) + ")");
  }
}
