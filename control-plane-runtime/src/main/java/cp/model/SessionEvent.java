package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** A HOT-ledger session event (SESSION_START, SESSION_END, DEGRADATION) with an idempotency key. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionEvent(String eventType, String key, String sessionId, String decision, String reason, JsonNode metadata) {
  public SessionEvent {
    Objects.requireNonNull(eventType, "event_type");
    Objects.requireNonNull(key, "key");
    metadata = metadata == null ? Json.object() : metadata.deepCopy();
  }
}
