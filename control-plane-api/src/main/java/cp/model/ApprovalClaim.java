package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * The decision a session accepted through its {@code approve} Update, as its Query
 * {@code approval_claim} answers it to the waiting turn (issue 20): the only way a decision
 * reaches a turn. Internal to the plane's workflows.
 *
 * @param decision the decision as the session accepted it (not yet recorded by the turn)
 * @param updateId the id of the {@code approve} Update that made it, by which the deciding
 *     client's identity is found in the session's history
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalClaim(ApprovalResult decision, String updateId) {
  public ApprovalClaim {
    Objects.requireNonNull(decision, "decision");
  }
}
