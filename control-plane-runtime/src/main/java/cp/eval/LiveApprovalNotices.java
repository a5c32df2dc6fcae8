package cp.eval;

import cp.model.PendingApproval;
import cp.model.SessionState;
import cp.workflows.SessionWorkflow;
import io.temporal.client.WorkflowClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * With {@code --live-tools} a case's tool runs for real, so its approval stays a person's
 * ({@link RecordedApprovals} decides only replayed calls). Before, the run then printed nothing
 * while the call waited, up to the tool's approval timeout (240 s for {@code write_file}). This
 * says once per approval what waits, until when, and who can decide: on a shared service
 * {@code cpctl approve}; on the run's own embedded service nobody, so the call waits out its
 * timeout and has the policy's outcome (it is then not counted as run).
 */
final class LiveApprovalNotices implements CaseExecution.PendingWatch {
  private final SessionWorkflow session;
  private final String caseId;
  private final boolean embedded;
  private final Consumer<String> progress;
  private final Set<String> told = new HashSet<>();

  LiveApprovalNotices(WorkflowClient client, String sessionId, String caseId, boolean embedded,
      Consumer<String> progress) {
    this.session = client.newWorkflowStub(SessionWorkflow.class, sessionId);
    this.caseId = caseId;
    this.embedded = embedded;
    this.progress = progress;
  }

  @Override
  public void poll() {
    SessionState state;
    try {
      state = session.state();
    } catch (RuntimeException e) {
      return; // only a look: asked again at the next poll; the turn's result says whether the case ran
    }
    for (PendingApproval p : state == null ? List.<PendingApproval>of() : state.pendingApprovals()) {
      if (told.add(p.approvalId())) {
        progress.accept(line(caseId, p, embedded));
      }
    }
  }

  static String line(String caseId, PendingApproval p, boolean embedded) {
    String what = caseId + ": " + p.tool() + " waits for approval " + p.approvalId() + " (--live-tools), until "
        + p.deadline() + ", then " + p.onTimeout();
    return embedded
        ? what + "; nobody can decide it: this run's Temporal service is embedded in this process (set"
            + " TEMPORAL_ADDRESS to run on a shared service, where 'cpctl approve' reaches it)"
        : what + ": decide with 'cpctl approve " + p.sessionId() + " " + p.approvalId() + "' (add --deny to refuse)";
  }
}
