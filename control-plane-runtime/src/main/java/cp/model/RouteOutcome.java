package cp.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a gateway round trip ended. REJECTED means nothing was sent. */
public enum RouteOutcome {
  SUCCESS,
  REJECTED,
  ERROR,
  TIMEOUT;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static RouteOutcome fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
