package cp.eval;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.RootCause;
import cp.model.SessionState;
import cp.workflows.SessionWorkflow;
import io.temporal.client.WorkflowClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, for a case whose tools are replayed from the record, the approvals its turn waits for,
 * as the recorded turn's calls were decided: a tool that ran in the recording (a call of it without
 * an error) is granted, any other denied, by {@value #DECIDED_BY}, through the session's validated
 * {@code approve} Update, so APPROVAL_DECIDED in the eval run's own ledger says so. The call itself
 * is replayed ({@link ToolReplay}): nothing is executed, so no person is needed. Before, such a case
 * waited for a person until the tool's approval timed out (240 s for write_file) and then ran
 * without its tool. With {@code --live-tools} a tool runs for real and its approval stays a person's.
 *
 * <p>An agent whose {@code approvers} do not include {@value #DECIDED_BY} refuses the decision; the
 * approval then waits as it would for a person, and the log says why once.
 */
final class RecordedApprovals implements CaseExecution.PendingWatch {
  /** Who the decisions are recorded as taken by. */
  static final String DECIDED_BY = "eval-replay";
  private static final Logger LOG = LoggerFactory.getLogger(RecordedApprovals.class);

  private final SessionWorkflow session;
  private final String sessionId;
  private final List<RecordedToolCall> recorded;
  /** Approvals decided (or refused) already: each is answered once. */
  private final Set<String> answered = new HashSet<>();

  RecordedApprovals(WorkflowClient client, String sessionId, List<RecordedToolCall> recorded) {
    this.session = client.newWorkflowStub(SessionWorkflow.class, sessionId);
    this.sessionId = sessionId;
    this.recorded = recorded == null ? List.of() : recorded;
  }

  @Override
  public void poll() {
    decidePending();
  }

  /** Answers the session's pending approvals not answered yet; returns how many it answered now. */
  int decidePending() {
    SessionState state;
    try {
      state = session.state();
    } catch (RuntimeException e) {
      // Only a look: a Query that fails now (a busy or restarting service) is asked again at the next poll,
      // and the turn's own result, not this, says whether the case ran.
      LOG.debug("eval session {}: pending approvals not readable now ({})", sessionId, RootCause.innermostMessage(e));
      return 0;
    }
    int n = 0;
    for (PendingApproval p : state == null ? List.<PendingApproval>of() : state.pendingApprovals()) {
      if (!answered.add(p.approvalId())) {
        continue;
      }
      ApprovalDecision d = decisionFor(p.approvalId(), p.tool(), recorded);
      try {
        ApprovalResult r = session.approve(d);
        LOG.info("eval session {}: approval {} of {} {} from the record", sessionId, p.approvalId(), p.tool(),
            r == null ? d.decision() : r.decision());
        n++;
      } catch (RuntimeException e) {
        LOG.warn("eval session {}: approval {} of {} could not be decided from the record ({}); it waits for a person"
            + " or its timeout", sessionId, p.approvalId(), p.tool(), RootCause.innermostMessage(e));
      }
    }
    return n;
  }

  /** Grant when the recorded turn ran {@code tool} (a call without an error), else deny. */
  static ApprovalDecision decisionFor(String approvalId, String tool, List<RecordedToolCall> recorded) {
    boolean ran = recorded.stream().anyMatch(c -> tool.equals(c.tool()) && !c.error());
    return new ApprovalDecision(approvalId, ran ? ApprovalDecision.GRANT : ApprovalDecision.DENY, DECIDED_BY,
        ran ? "the recorded turn ran " + tool + " (its call is replayed from the record)"
            : "the recorded turn did not run " + tool);
  }
}
