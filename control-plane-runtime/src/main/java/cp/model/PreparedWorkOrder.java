package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The result of HO1's prepare step: where the rendered prompt is stored, or why the work
 * order cannot run.
 *
 * @param promptRef the HO1m WO_EXECUTING entry holding the rendered system and user prompt
 * @param errorCode contract_not_found or input_schema_invalid when the WO cannot run
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PreparedWorkOrder(String promptRef, String contractId, String errorCode, String errorMessage) {
  public boolean ok() {
    return errorCode == null;
  }
}
