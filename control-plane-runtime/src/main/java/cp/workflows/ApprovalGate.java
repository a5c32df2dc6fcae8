package cp.workflows;

import cp.activities.ApprovalActivities;
import cp.model.AgentProfile;
import cp.model.ApprovalRequest;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.RootCause;
import cp.model.ToolApproval;
import cp.model.ToolUse;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A turn's durable pause before a tool call that needs a person's decision (issue 15).
 *
 * <p>When the agent's policy says a tool needs approval ({@link AgentProfile#approvalOf}), the
 * gate records APPROVAL_REQUESTED (a local activity that also summarizes the arguments for a
 * person), tells the session what it waits for (the signal {@code approval_pending}; the session
 * validates {@code approve} Updates against it and forwards a decision with the signal
 * {@code approval_decided}), and waits on a durable timer: no activity runs and no worker thread
 * is needed while it waits; a worker killed meanwhile loses nothing, the next one replays to the
 * same wait. The first of the decision and the timer wins; the gate records APPROVAL_DECIDED
 * (granted, denied or timed_out, by whom, when, why) and tells the session how it was decided
 * ({@code approval_closed}), which answers the Update with that record.
 *
 * <p>The wait is bounded by the tool's {@code approval_timeout_seconds} and by the turn's own
 * deadline ({@code budget.turn_timeout_seconds}, which the session enforces by cancelling the
 * turn): whichever comes first. The catalog refuses an approval timeout that is not shorter than
 * the turn deadline, so as shipped the approval's own timeout ends an unanswered wait; if the
 * turn is cancelled first anyway, the gate records the approval as timed_out, saying so.
 *
 * <p>Determinism: everything here is workflow code; the approval id is derived from the work
 * order, round and call index. The control flow is new from {@link #TOOL_APPROVAL} version 1 on.
 */
final class ApprovalGate {
  /** Version marker of issue 15: tool calls the agent's policy marks wait for a person's decision. */
  static final String TOOL_APPROVAL = "tool-approval";

  private final ApprovalActivities local;
  private final AgentProfile profile;
  private final String sessionId;
  private final int turn;
  private final Consumer<String> onStep;
  /** Approvals this turn waits for, by id. */
  private final Map<String, PendingApproval> waiting = new LinkedHashMap<>();
  /** Decisions the session forwarded, by approval id; the first for an id wins. */
  private final Map<String, ApprovalResult> decisions = new HashMap<>();

  ApprovalGate(ApprovalActivities local, AgentProfile profile, String sessionId, int turn, Consumer<String> onStep) {
    this.local = local;
    this.profile = profile;
    this.sessionId = sessionId;
    this.turn = turn;
    this.onStep = onStep;
  }

  /** The signal {@code approval_decided}: a decision for an approval this turn waits for; others are ignored. */
  void onDecision(ApprovalResult decision) {
    if (decision != null && waiting.containsKey(decision.approvalId())) {
      decisions.putIfAbsent(decision.approvalId(), decision);
    }
  }

  /** The approvals this turn waits for now (at most one: calls run one after another). */
  List<PendingApproval> waiting() {
    return List.copyOf(waiting.values());
  }

  /**
   * The decision on one tool call, after the durable wait; null when the agent's policy lets the
   * tool run without one (or the turn predates {@link #TOOL_APPROVAL}).
   *
   * @param index the call's position among the round's tool calls, from 1
   */
  ApprovalResult decide(String woId, String agentClass, ToolUse use, int round, int index) {
    Optional<ToolApproval> policy = profile.approvalOf(use.name());
    if (policy.isEmpty()
        || Workflow.getVersion(TOOL_APPROVAL, Workflow.DEFAULT_VERSION, 1) < 1) {
      return null;
    }
    ToolApproval p = policy.get();
    String id = approvalId(woId, round, index);
    String turnWorkflowId = cp.model.WorkOrderIds.turnWorkflow(sessionId, turn);
    PendingApproval pending = local.request(new ApprovalRequest(id, sessionId, turn, turnWorkflowId, woId, agentClass,
        use, round, p.timeoutSeconds(), p.grantOnTimeout(), Workflow.currentTimeMillis()));
    waiting.put(id, pending);
    tellSession(s -> s.approvalPending(pending));
    onStep.accept("waiting for approval " + id + " (" + use.name() + ")");
    ApprovalResult result;
    try {
      result = waitFor(id, p);
    } catch (CanceledFailure e) {
      // The session cancelled the turn (its deadline passed) while the call waited.
      closeOnCancel(pending, woId, p);
      throw e;
    }
    local.decided(result, woId);
    waiting.remove(id);
    ApprovalResult recorded = result;
    tellSession(s -> s.approvalClosed(recorded));
    onStep.accept("tool " + use.name() + " (" + result.decision() + ")");
    return result;
  }

  /** The first of the session's forwarded decision and the approval's timer. */
  private ApprovalResult waitFor(String id, ToolApproval p) {
    List<Promise<Void>> timer = new ArrayList<>(1);
    CancellationScope timerScope = Workflow.newCancellationScope(
        () -> timer.add(Workflow.newTimer(Duration.ofSeconds(p.timeoutSeconds()))));
    timerScope.run();
    Workflow.await(() -> decisions.containsKey(id) || timer.get(0).isCompleted());
    ApprovalResult d = decisions.get(id);
    if (d != null) {
      timerScope.cancel();
      return d;
    }
    PendingApproval pending = waiting.get(id);
    return new ApprovalResult(id, sessionId, turn, pending.tool(), ApprovalResult.TIMED_OUT, p.grantOnTimeout(),
        ApprovalResult.SYSTEM, now(), "nobody decided within " + Durations.words(p.timeoutSeconds())
            + " (approval_timeout_seconds = " + p.timeoutSeconds() + "); the policy "
            + (p.grantOnTimeout() ? "grants" : "denies") + " on timeout", null);
  }

  /**
   * The session cancelled the turn (its deadline passed) while the call waited: the approval is
   * closed as timed out, on record and at the session, in a scope of its own (the turn's is cancelled).
   */
  private void closeOnCancel(PendingApproval pending, String woId, ToolApproval p) {
    ApprovalResult r = new ApprovalResult(pending.approvalId(), sessionId, turn, pending.tool(),
        ApprovalResult.TIMED_OUT, false, ApprovalResult.SYSTEM, now(), "the turn's deadline (budget.turn_timeout_seconds"
            + " = " + profile.turnTimeoutSeconds() + ") passed before a decision; the turn was cancelled", null);
    Workflow.newDetachedCancellationScope(() -> {
      try {
        local.decided(r, woId);
      } catch (ActivityFailure e) {
        Workflow.getLogger(ApprovalGate.class).warn("approval {}: APPROVAL_DECIDED could not be recorded after the"
            + " turn was cancelled: {}", pending.approvalId(), RootCause.applicationMessage(e));
      }
      waiting.remove(pending.approvalId());
      tellSession(s -> s.approvalClosed(r));
    }).run();
  }

  /**
   * Signals the session (the turn's parent) if there is one; a turn run on its own (tests, a
   * replayed history) has none. A session that has gone cannot be told, and nothing waits on it then.
   */
  private static void tellSession(Consumer<SessionWorkflow> signal) {
    Optional<String> parent = Workflow.getInfo().getParentWorkflowId();
    if (parent.isEmpty()) {
      return;
    }
    try {
      signal.accept(Workflow.newExternalWorkflowStub(SessionWorkflow.class, parent.get()));
    } catch (RuntimeException e) {
      if (e instanceof CanceledFailure) {
        throw e;
      }
      Workflow.getLogger(ApprovalGate.class).warn("the session {} could not be told about an approval: {}",
          parent.get(), RootCause.innermostMessage(e));
    }
  }

  /** {@code APR-} + the work order's session hex, turn and sequence, the round and the call's index. */
  static String approvalId(String woId, int round, int index) {
    return cp.model.WorkOrderId.parse(woId).map(wo -> wo.approvalId(round, index))
        .orElseThrow(() -> new IllegalArgumentException("not a work-order id: '" + woId + "'"));
  }

  private static String now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis()).toString();
  }
}
