package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** A batch of HO2m events for one turn; {@code chainWoIds} scopes the trace hash. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Ho2Record(String agentClass, String sessionId, int turn, List<Ho2Event> events, List<String> chainWoIds) {
  public Ho2Record {
    events = List.copyOf(events);
    chainWoIds = chainWoIds == null ? List.of() : List.copyOf(chainWoIds);
  }
}
