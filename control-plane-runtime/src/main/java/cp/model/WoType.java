package cp.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/** What a work order asks HO1 to do (FMWK-008 wo_type). */
public enum WoType {
  CLASSIFY,
  SYNTHESIZE,
  EXECUTE,
  /** Runs one tool with no LLM call. */
  TOOL_CALL;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static WoType fromWire(String value) {
    for (WoType t : values()) {
      if (t.wireName().equalsIgnoreCase(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "unknown wo_type '" + value + "' (known: " + Arrays.toString(values()).toLowerCase(Locale.ROOT) + ")");
  }
}
