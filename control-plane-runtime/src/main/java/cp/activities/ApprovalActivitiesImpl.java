package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.ApprovalRequest;
import cp.model.ApprovalResult;
import cp.model.DisplayText;
import cp.model.EventType;
import cp.model.PendingApproval;
import cp.model.ToolUse;
import cp.tools.WriteFileTool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Records approvals in HO1m: APPROVAL_REQUESTED when a call starts to wait, APPROVAL_DECIDED when
 * it is decided. Idempotency keys are the approval id (unique in the plane: session, turn, work
 * order, round and call), so a retried local activity finds its own entry.
 */
public final class ApprovalActivitiesImpl implements ApprovalActivities {
  public static final String APPROVAL_REQUESTED = EventType.APPROVAL_REQUESTED.wire();
  public static final String APPROVAL_DECIDED = EventType.APPROVAL_DECIDED.wire();

  private final Ledgers ledgers;

  public ApprovalActivitiesImpl(Ledgers ledgers) {
    this.ledgers = ledgers;
  }

  @Override
  public PendingApproval request(ApprovalRequest r) {
    ToolUse use = r.toolUse();
    // What a person judges the call by, with control and bidi characters shown, not obeyed (issue 20).
    String summary = DisplayText.escape(summary(use));
    String requestedAt = Instant.ofEpochMilli(r.requestedAtMillis()).toString();
    String deadline = Instant.ofEpochMilli(r.requestedAtMillis() + r.timeoutSeconds() * 1000).toString();
    String onTimeout = r.grantOnTimeout() ? "grant" : "deny";
    ObjectNode meta = Ho1ActivitiesImpl.ho1Meta(r.woId(), r.sessionId()).put("approval_id", r.approvalId())
        .put("agent_class", r.agentClass()).put("turn", r.turn()).put("turn_workflow_id", r.turnWorkflowId())
        .put("round", r.round()).put("tool_id", use.name()).put("tool_use_id", use.id()).put("summary", summary)
        .put("requested_at", requestedAt).put("deadline", deadline).put("timeout_seconds", r.timeoutSeconds())
        .put("on_timeout", onTimeout);
    String entryId = ledgers.ho1().write(LedgerEntry.builder(APPROVAL_REQUESTED).submissionId(r.woId())
        .decision("PENDING").reason(use.name() + " waits for a person's decision (" + r.approvalId() + ")")
        .metadata(meta).idempotencyKey(APPROVAL_REQUESTED + "/" + r.approvalId()).build());
    return new PendingApproval(r.approvalId(), r.sessionId(), r.turn(), r.turnWorkflowId(), r.woId(), use.name(),
        use.id(), summary, requestedAt, deadline, r.timeoutSeconds(), onTimeout, entryId);
  }

  @Override
  public String decided(ApprovalResult d, String woId) {
    ObjectNode meta = Ho1ActivitiesImpl.ho1Meta(woId, d.sessionId()).put("approval_id", d.approvalId())
        .put("turn", d.turn()).put("tool_id", d.tool()).put("decision", d.decision()).put("granted", d.granted())
        .put("decided_by", d.decidedBy()).put("decided_at", d.decidedAt());
    if (d.reason() != null) {
      meta.put("reason", d.reason());
    }
    if (d.clientIdentity() != null) {
      // Issue 20: who the service saw decide, beside the name they claimed (decided_by).
      meta.put("client_identity", d.clientIdentity());
    }
    return ledgers.ho1().write(LedgerEntry.builder(APPROVAL_DECIDED).submissionId(woId)
        .decision(d.decision().toUpperCase(Locale.ROOT))
        .reason(d.tool() + " " + d.decision() + " by " + d.decidedBy() + (d.granted() ? ": it runs" : ": it does not run"))
        .metadata(meta).idempotencyKey(APPROVAL_DECIDED + "/" + d.approvalId()).build());
  }

  /** Characters of one argument value shown to the approver: a sentence, a path, a query. */
  static final int MAX_VALUE_CHARS = 200;
  /** Characters of the whole summary: a few lines of a terminal, and a bounded ledger entry. */
  static final int MAX_SUMMARY_CHARS = 1_000;

  /**
   * What a person judges the call by: write_file's own summary (path, size, first lines, secret
   * lines hidden); for another tool each argument with its value, as JSON, cut at
   * {@link #MAX_VALUE_CHARS} (a longer one says how long it is) and the whole at
   * {@link #MAX_SUMMARY_CHARS}. The value of an argument whose name looks secret ({@code api_key},
   * {@code password}, {@code token}) is hidden, only its length shown. The caller escapes what could
   * act on a terminal, and the ledger masks configured secrets.
   */
  static String summary(ToolUse use) {
    if (WriteFileTool.ID.equals(use.name())) {
      return WriteFileTool.summary(use.input());
    }
    List<String> parts = new ArrayList<>();
    JsonNode in = use.input();
    for (Iterator<String> names = in.fieldNames(); names.hasNext(); ) {
      String n = names.next();
      parts.add(n + "=" + shown(n, in.get(n)));
    }
    String all = parts.isEmpty() ? "no arguments" : String.join(", ", parts);
    return all.length() <= MAX_SUMMARY_CHARS ? all
        : all.substring(0, MAX_SUMMARY_CHARS) + "…(" + all.length() + " chars in all)";
  }

  private static String shown(String name, JsonNode v) {
    String text = v.isTextual() ? v.asText() : v.toString();
    if (cp.observability.SecretMasker.looksSecretName(name)) {
      return "(hidden: " + text.length() + " chars)";
    }
    String json = v.isTextual() ? cp.model.Json.write(v) : text;
    return json.length() <= MAX_VALUE_CHARS ? json
        : json.substring(0, MAX_VALUE_CHARS) + "…(" + text.length() + " chars)";
  }
}
