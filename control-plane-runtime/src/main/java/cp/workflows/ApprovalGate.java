package cp.workflows;

import cp.activities.ApprovalActivities;
import cp.activities.ApprovalLookupActivities;
import cp.model.AgentProfile;
import cp.model.ApprovalRequest;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.RootCause;
import cp.model.ToolApproval;
import cp.model.ToolUse;
import cp.model.TurnApprovals;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
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
 * <p>Issue 20: from {@link #APPROVAL_BY_QUERY} 1 on, {@code approval_decided} is only a wake-up.
 * Any client with access to the namespace can send a signal, so its content decides nothing: the
 * gate asks the session for the decision it accepted through its validated {@code approve} Update
 * (the session's Query {@code approval_claim}, from an activity whose answer the history
 * records), with the identity the service recorded for the deciding client, and records exactly
 * that. A forged wake-up costs one look-up and changes nothing.
 *
 * <p>Determinism: everything here is workflow code; the approval id is derived from the work
 * order, round and call index. The control flow is new from {@link #TOOL_APPROVAL} version 1 on.
 */
final class ApprovalGate {
  /** Version marker of issue 15: tool calls the agent's policy marks wait for a person's decision. */
  static final String TOOL_APPROVAL = "tool-approval";
  /** Version marker of issue 20: the turn takes decisions from its session by Query, never from a signal. */
  static final String APPROVAL_BY_QUERY = "approval-by-query";
  /** How long a failed look-up waits before it asks again. */
  static final Duration LOOKUP_RETRY = Duration.ofSeconds(1);
  /**
   * The look-ups of either side run as (remote) activities, not local ones: a local activity holds
   * its workflow task open, and a Query to a workflow waits until its open task completes, so a
   * session and its turn asking each other at once from local activities would each wait for the
   * other (a forged signal to both can make them). An activity leaves its workflow's task closed.
   * One Query takes milliseconds; 10 s bounds a busy service, 3 attempts a passing fault, after
   * which the caller waits {@link #LOOKUP_RETRY} and asks again.
   */
  static final ActivityOptions LOOKUP_OPTIONS = ActivityOptions.newBuilder()
      .setStartToCloseTimeout(Duration.ofSeconds(10))
      .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(200)).setMaximumAttempts(3)
          .build())
      .build();

  private final ApprovalActivities local;
  private final ApprovalLookupActivities lookup;
  private final AgentProfile profile;
  private final String sessionId;
  private final int turn;
  private final Consumer<String> onStep;
  /** Approvals this turn waits for, by id. */
  private final Map<String, PendingApproval> waiting = new LinkedHashMap<>();
  /** Before {@link #APPROVAL_BY_QUERY}: decisions the session forwarded, by approval id; the first for an id wins. */
  private final Map<String, ApprovalResult> decisions = new HashMap<>();
  /** How each approval of this turn was decided, as recorded (APPROVAL_DECIDED), for the session's look-up. */
  private final List<ApprovalResult> recorded = new ArrayList<>();
  /** Whether decisions come from the session by Query; null until the first approval asks. */
  private Boolean byQuery;
  /** Wake-ups ({@code approval_decided}) for an approval this turn waits for. */
  private int doorbells;

  ApprovalGate(ApprovalActivities local, ApprovalLookupActivities lookup, AgentProfile profile, String sessionId,
      int turn, Consumer<String> onStep) {
    this.local = local;
    this.lookup = lookup;
    this.profile = profile;
    this.sessionId = sessionId;
    this.turn = turn;
    this.onStep = onStep;
  }

  /**
   * The signal {@code approval_decided}. From {@link #APPROVAL_BY_QUERY} 1 on a wake-up while the
   * turn waits, whatever it says; before, a decision for an approval this turn waits for (others
   * were ignored).
   */
  void onDecision(ApprovalResult decision) {
    if (waiting.isEmpty()) {
      return;
    }
    if (Boolean.TRUE.equals(byQuery)) {
      doorbells++;
    } else if (decision != null && waiting.containsKey(decision.approvalId())) {
      decisions.putIfAbsent(decision.approvalId(), decision);
    }
  }

  /** What this turn waits for and how it recorded its decisions: the Query {@code approvals}. */
  TurnApprovals snapshot() {
    return new TurnApprovals(List.copyOf(waiting.values()), List.copyOf(recorded));
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
    if (byQuery == null) {
      byQuery = Workflow.getVersion(APPROVAL_BY_QUERY, Workflow.DEFAULT_VERSION, 1) >= 1;
    }
    String id = approvalId(woId, round, index);
    String turnWorkflowId = cp.model.WorkOrderIds.turnWorkflow(sessionId, turn);
    PendingApproval pending = local.request(new ApprovalRequest(id, sessionId, turn, turnWorkflowId, woId, agentClass,
        use, round, p.timeoutSeconds(), p.grantOnTimeout(), Workflow.currentTimeMillis()));
    waiting.put(id, pending);
    tellSession(s -> s.approvalPending(pending));
    onStep.accept("waiting for approval " + id + " (" + use.name() + ")");
    ApprovalResult result;
    try {
      result = byQuery ? waitForSession(id, p) : waitFor(id, p);
    } catch (CanceledFailure e) {
      // The session cancelled the turn (its deadline passed) while the call waited.
      closeOnCancel(pending, woId, p);
      throw e;
    }
    local.decided(result, woId);
    waiting.remove(id);
    recorded.add(result);
    ApprovalResult done = result;
    tellSession(s -> s.approvalClosed(done));
    onStep.accept("tool " + use.name() + " (" + result.decision() + ")");
    return result;
  }

  /**
   * From {@link #APPROVAL_BY_QUERY} 1 on: the first of the approval's timer and a decision the
   * session confirms. Each wake-up asks the session; an answer of "nothing decided" (a forged or
   * early wake-up) keeps the wait, and a look-up that fails is asked again after
   * {@link #LOOKUP_RETRY}.
   */
  private ApprovalResult waitForSession(String id, ToolApproval p) {
    List<Promise<Void>> timer = new ArrayList<>(1);
    CancellationScope timerScope = Workflow.newCancellationScope(
        () -> timer.add(Workflow.newTimer(Duration.ofSeconds(p.timeoutSeconds()))));
    timerScope.run();
    Optional<String> session = Workflow.getInfo().getParentWorkflowId();
    int asked = doorbells;
    while (true) {
      int seen = asked;
      Workflow.await(() -> doorbells != seen || timer.get(0).isCompleted());
      if (doorbells != asked) {
        asked = doorbells;
        Optional<ApprovalResult> d = session.isPresent() ? askSession(session.get(), id) : Optional.empty();
        if (d == null) {
          if (!timer.get(0).isCompleted()) {
            doorbells++; // the look-up failed: ask again (after its pause)
          }
          continue;
        }
        if (d.isPresent()) {
          timerScope.cancel();
          return d.get();
        }
      }
      if (timer.get(0).isCompleted()) {
        return timedOut(id, p);
      }
    }
  }

  /** The session's accepted decision, empty when there is none, null when the look-up failed (after a pause). */
  private Optional<ApprovalResult> askSession(String sessionWorkflowId, String id) {
    try {
      ApprovalResult d = lookup.claimedDecision(sessionWorkflowId, id);
      return d != null && id.equals(d.approvalId()) ? Optional.of(d) : Optional.empty();
    } catch (ActivityFailure e) {
      Workflow.getLogger(ApprovalGate.class).warn("approval {}: the session {} could not be asked for its decision"
          + " ({}); asking again in {}", id, sessionWorkflowId, RootCause.innermostMessage(e), LOOKUP_RETRY);
      Workflow.sleep(LOOKUP_RETRY);
      return null;
    }
  }

  /** The first of the session's forwarded decision and the approval's timer (before {@link #APPROVAL_BY_QUERY}). */
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
    return timedOut(id, p);
  }

  private ApprovalResult timedOut(String id, ToolApproval p) {
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
      recorded.add(r);
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
