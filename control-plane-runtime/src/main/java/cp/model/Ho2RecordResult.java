package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** The entry ids written (in order) and the trace hash, when one was asked for. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Ho2RecordResult(List<String> entryIds, String traceHash) {
  public Ho2RecordResult {
    entryIds = entryIds == null ? List.of() : List.copyOf(entryIds);
  }
}
