package cp.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Set;

/**
 * The work-order lifecycle of FMWK-008: planned, dispatched, executing, then completed or failed.
 *
 * <p>A work order may also fail before it executes (HO2 can fail a planned or dispatched WO when
 * the budget is gone), but nothing leaves a terminal state.
 */
public enum WoState {
  PLANNED,
  DISPATCHED,
  EXECUTING,
  COMPLETED,
  FAILED;

  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED;
  }

  public boolean canTransitionTo(WoState next) {
    return allowedNext().contains(next);
  }

  public Set<WoState> allowedNext() {
    return switch (this) {
      case PLANNED -> Set.of(DISPATCHED, FAILED);
      case DISPATCHED -> Set.of(EXECUTING, FAILED);
      case EXECUTING -> Set.of(COMPLETED, FAILED);
      case COMPLETED, FAILED -> Set.of();
    };
  }

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static WoState fromWire(String value) {
    for (WoState s : values()) {
      if (s.wireName().equalsIgnoreCase(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown work-order state '" + value + "'");
  }
}
