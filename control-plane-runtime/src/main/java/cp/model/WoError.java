package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * Why a work order failed: a stable code from {@link WoErrorCode} and a human message; for a call the
 * gateway refused for a budget, which one ({@code refusal}, absent otherwise and in what was recorded
 * before it existed: {@link #refusalKind()} then reads the message).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record WoError(String code, String message, RefusalKind refusal) {
  @com.fasterxml.jackson.annotation.JsonCreator
  public WoError {
    Objects.requireNonNull(code, "code");
    message = message == null ? "" : message;
  }

  public WoError(String code, String message) {
    this(code, message, null);
  }

  /** The refusal's kind: as recorded, else from the message's words ({@link RefusalKind#fromText}). */
  public RefusalKind refusalKind() {
    return RefusalKind.orFromText(refusal, message);
  }
}
