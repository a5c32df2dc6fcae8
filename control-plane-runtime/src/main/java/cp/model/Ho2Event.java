package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * An HO2m event the supervisor wants written (WO_PLANNED, WO_DISPATCHED, WO_QUALITY_GATE,
 * WO_CHAIN_COMPLETE, ESCALATION). {@code key} is unique within the workflow run and makes the
 * write idempotent; {@code withTraceHash} asks the activity to attach the chain's trace hash.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Ho2Event(String eventType, String key, String woId, String decision, String reason,
    JsonNode metadata, boolean withTraceHash) {
  public Ho2Event {
    Objects.requireNonNull(eventType, "event_type");
    Objects.requireNonNull(key, "key");
    metadata = metadata == null ? Json.object() : metadata.deepCopy();
  }
}
