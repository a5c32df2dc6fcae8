package cp.workflows;

import cp.model.AgentProfile;
import cp.model.ApprovalClaim;
import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.DisplayText;
import cp.model.PendingApproval;
import cp.model.Refusal;
import cp.model.TurnApprovals;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The session's book of approvals (issue 15): what its running turn waits for, which decisions
 * it accepted and how the turn recorded them. Pure workflow state, no commands: the session
 * validates {@code approve} Updates against it (unknown or already decided: refused, naming who
 * decided), claims an approval for the first decision it accepts, and answers the Update with the
 * turn's record once it arrives. Not carried across continue-as-new, which happens only between
 * turns, when nothing waits.
 */
final class SessionApprovals {
  /** Waiting for a decision, by approval id, in the order they were asked. */
  private final Map<String, PendingApproval> pending = new LinkedHashMap<>();
  /** The first decision accepted for an approval (not yet recorded by the turn). */
  private final Map<String, ApprovalResult> claimed = new LinkedHashMap<>();
  /** As the turn recorded them (APPROVAL_DECIDED), or closed because the turn ended first. */
  private final Map<String, ApprovalResult> closed = new LinkedHashMap<>();
  /** The id of the {@code approve} Update that made each claim, by approval id. */
  private final Map<String, String> claimUpdates = new LinkedHashMap<>();

  /** A turn asks: accepted only from the session's running turn (anything else is not the session's). */
  void pending(PendingApproval p, String sessionId, String runningTurnWorkflowId) {
    if (p == null || !sessionId.equals(p.sessionId()) || runningTurnWorkflowId == null
        || !runningTurnWorkflowId.equals(p.turnWorkflowId()) || closed.containsKey(p.approvalId())) {
      return;
    }
    pending.putIfAbsent(p.approvalId(), p);
  }

  /** The turn recorded the decision: the first record for an id stands. */
  void closed(ApprovalResult r) {
    if (r == null) {
      return;
    }
    closed.putIfAbsent(r.approvalId(), r);
    pending.remove(r.approvalId());
  }

  /**
   * The turn {@code turnWorkflowId} ended: what still waits is closed with what was claimed (or as
   * timed out, when nobody decided), so no Update waits for ever.
   */
  void turnEnded(String turnWorkflowId, long nowMillis) {
    for (PendingApproval p : new ArrayList<>(pending.values())) {
      if (p.turnWorkflowId().equals(turnWorkflowId)) {
        ApprovalResult claim = claimed.get(p.approvalId());
        closed(new ApprovalResult(p.approvalId(), p.sessionId(), p.turn(), p.tool(), ApprovalResult.TIMED_OUT, false,
            ApprovalResult.SYSTEM, Instant.ofEpochMilli(nowMillis).toString(), "the turn ended before the decision"
                + (claim == null ? "" : " of " + claim.decidedBy()) + " was recorded; the call did not run", null));
      }
    }
  }

  /** What waits and nobody has decided yet, for the Query {@code state}. */
  List<PendingApproval> undecided() {
    return pending.values().stream().filter(p -> !claimed.containsKey(p.approvalId())).toList();
  }

  Optional<PendingApproval> waiting(String approvalId) {
    return Optional.ofNullable(pending.get(approvalId));
  }

  /**
   * Why {@code d} cannot be accepted now, or empty.
   *
   * @param profile the agent's profile (its {@code approvers}); null before the session loaded it
   */
  Optional<Refusal.Problem> refusal(ApprovalDecision d, String sessionId, AgentProfile profile) {
    if (d == null) {
      return Optional.of(new Refusal.Problem(ApprovalDecision.SHAPE + "; got nothing",
          Refusal.of(Refusal.Code.MISSING_FIELD)));
    }
    Optional<Refusal.Problem> shape = d.fieldProblem();
    if (shape.isPresent()) {
      return shape;
    }
    if (profile != null && !profile.mayApprove(d.decidedBy())) {
      return Optional.of(new Refusal.Problem("'" + d.decidedBy() + "' may not decide approvals of agent "
          + profile.agentClass() + " (its approvers: " + String.join(", ", profile.approvers()) + ")",
          Refusal.of(Refusal.Code.APPROVER_NOT_ALLOWED, "decided_by")));
    }
    String id = d.approvalId();
    ApprovalResult done = closed.containsKey(id) ? closed.get(id) : claimed.get(id);
    if (done != null) {
      return Optional.of(new Refusal.Problem("approval " + id + " was already decided: " + describe(done)
          + "; a decision stands once made", Refusal.of(Refusal.Code.ALREADY_DECIDED, "approval_id")));
    }
    if (!pending.containsKey(id)) {
      String open = String.join(", ", undecided().stream().map(PendingApproval::approvalId).toList());
      return Optional.of(new Refusal.Problem("session " + sessionId + " has no pending approval '"
          + (id.length() > 80 ? id.substring(0, 80) + "…" : id) + "' (pending: " + (open.isEmpty() ? "none" : open)
          + "); list them with 'cpctl approvals " + sessionId + "'", Refusal.of(Refusal.Code.UNKNOWN_APPROVAL,
          "approval_id")));
    }
    return Optional.empty();
  }

  /**
   * What the session's running turn says it waits for and recorded (its Query {@code approvals}):
   * the only source of pending approvals and records from {@link ApprovalGate#APPROVAL_BY_QUERY} 1 on.
   */
  void learn(TurnApprovals fromTurn, String sessionId, String turnWorkflowId) {
    fromTurn.waiting().forEach(p -> pending(p, sessionId, turnWorkflowId));
    fromTurn.recorded().forEach(this::closed);
  }

  /** Whether the turn {@code turnWorkflowId} has an approval the session has not seen closed. */
  boolean hasOpen(String turnWorkflowId) {
    return pending.values().stream().anyMatch(p -> p.turnWorkflowId().equals(turnWorkflowId));
  }

  /** The decision accepted for {@code approvalId} and not yet recorded, with its Update's id: the Query {@code approval_claim}. */
  Optional<ApprovalClaim> claimOf(String approvalId) {
    ApprovalResult c = claimed.get(approvalId);
    return c == null || closed.containsKey(approvalId) ? Optional.empty()
        : Optional.of(new ApprovalClaim(c, claimUpdates.get(approvalId)));
  }

  /**
   * Accepts the first decision for a pending approval; the claim refuses every later one.
   *
   * @param updateId the {@code approve} Update's id, by which the deciding client is found in history
   */
  ApprovalResult claim(ApprovalDecision d, long nowMillis, String updateId) {
    if (updateId != null) {
      claimUpdates.put(d.approvalId(), updateId);
    }
    return claim(d, nowMillis);
  }

  /** Accepts the first decision for a pending approval; the claim refuses every later one. */
  ApprovalResult claim(ApprovalDecision d, long nowMillis) {
    PendingApproval p = pending.get(d.approvalId());
    ApprovalResult r = new ApprovalResult(p.approvalId(), p.sessionId(), p.turn(), p.tool(),
        d.grants() ? ApprovalResult.GRANTED : ApprovalResult.DENIED, d.grants(), d.decidedBy(),
        Instant.ofEpochMilli(nowMillis).toString(), d.reason() == null || d.reason().isBlank() ? null : d.reason(), null);
    claimed.put(p.approvalId(), r);
    return r;
  }

  Optional<ApprovalResult> recorded(String approvalId) {
    return Optional.ofNullable(closed.get(approvalId));
  }

  /** "granted by alice at 2026-…Z (reason: …)", "timed_out at … (…)". */
  static String describe(ApprovalResult r) {
    String by = ApprovalResult.SYSTEM.equals(r.decidedBy()) ? "" : " by " + r.decidedBy();
    return r.decision() + by + " at " + r.decidedAt() + (r.reason() == null ? ""
        : " (" + DisplayText.escape(r.reason()) + ")");
  }

  /** The Update's answer: the turn's record, with one line for a person. */
  static ApprovalResult answer(ApprovalResult recorded, ApprovalResult asked) {
    String line;
    if (recorded.decision().equals(asked.decision())) {
      line = "approval " + recorded.approvalId() + " " + recorded.decision() + " by " + recorded.decidedBy() + ": "
          + recorded.tool() + (recorded.granted() ? " runs now" : " does not run; the model is told");
    } else {
      line = "approval " + recorded.approvalId() + " was " + describe(recorded) + " before your decision ("
          + asked.decision() + ") took effect: " + recorded.tool() + (recorded.granted() ? " runs" : " does not run");
    }
    return recorded.withMessage(line);
  }
}
