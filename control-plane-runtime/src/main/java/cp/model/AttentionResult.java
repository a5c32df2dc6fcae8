package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The assembled context, by reference: the text is in the HO2m ATTENTION_ASSEMBLED entry
 * {@code contextRef}; the workflow only carries its hash and size.
 *
 * @param partial true when a budget or timeout cut assembly short (fallback return_partial)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttentionResult(String contextRef, String contextHash, int fragmentCount, long tokens, int queries,
    boolean partial, int priorTurns) {}
