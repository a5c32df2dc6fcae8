package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/** Why a work order failed: a stable code from {@link WoErrorCode} and a human message. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WoError(String code, String message) {
  public WoError {
    Objects.requireNonNull(code, "code");
    message = message == null ? "" : message;
  }
}
