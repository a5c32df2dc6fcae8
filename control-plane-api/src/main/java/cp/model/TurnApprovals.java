package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * A turn's approvals as its Query {@code approvals} answers them to its session (issue 20): what
 * it waits for and how it recorded each decision (APPROVAL_DECIDED). The session learns them only
 * this way, never from a signal's content. Internal to the plane's workflows.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TurnApprovals(List<PendingApproval> waiting, List<ApprovalResult> recorded) {
  public static final TurnApprovals NONE = new TurnApprovals(List.of(), List.of());

  public TurnApprovals {
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
    recorded = recorded == null ? List.of() : List.copyOf(recorded);
  }
}
