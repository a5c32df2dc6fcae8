package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.faults.FaultHook;
import cp.faults.FaultPoints;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerUnreachableException;
import cp.ledger.Ledgers;
import cp.model.ApprovalResult;
import cp.model.EventType;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolUse;
import cp.observability.PlaneMetrics;
import cp.observability.Telemetry;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolExecutor;
import cp.tools.ToolInvocation;
import cp.tools.ToolResult;
import io.opentelemetry.api.trace.Span;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of HO1's tool call activity: answers a call whose TOOL_CALL is already recorded from
 * the ledger (a retry never runs a tool twice), else runs it through the {@link ToolExecutor}
 * (or reports the approval that refused it), cuts the result and records one TOOL_CALL entry.
 * Tool failures are results; a ledger database that cannot be reached is thrown on, so the
 * activity waits for it. Thread-safe: holds no per-call state.
 */
final class ToolCallStep {
  private static final Logger LOG = LoggerFactory.getLogger(ToolCallStep.class);
  /** A tool result longer than this is cut (with a note) before it reaches the ledger and the model. */
  static final int MAX_RESULT_CHARS = 32_000;

  private final Ledgers ledgers;
  private final ToolExecutor tools;
  private final Clock clock;
  private final Telemetry telemetry;
  private final FaultHook faults;

  /** {@code telemetry}: the tool spans and metrics; {@code faults}: the {@code tool-call} point (a crash test's hook). */
  ToolCallStep(Ledgers ledgers, ToolExecutor tools, Clock clock, Telemetry telemetry, FaultHook faults) {
    this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    this.faults = Objects.requireNonNull(faults, "faults");
    this.ledgers = Objects.requireNonNull(ledgers, "ledgers");
    this.tools = Objects.requireNonNull(tools, "tools");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  ToolCallResult run(ToolCallRequest r, ActivityIdentity id) {
    String key = id.activityKey(EventType.TOOL_CALL.wire());
    LedgerStream ho1 = ledgers.ho1();
    Optional<String> done = ho1.idForKey(key);
    if (done.isPresent()) {
      LedgerEntry e = ho1.byId(done.get()).orElseThrow();
      return new ToolCallResult(e.entryId(), e.metaText("tool_use_id"), e.metaText("tool_id"), e.metaText("status"),
          e.metaText("error_code"));
    }
    ToolUse use = r.toolUse();
    long start = clock.millis();
    boolean known = r.allowedTools().contains(use.name());
    String origin = known ? tools.originOf(use.name()) : PlaneMetrics.OTHER;
    Span span = ActivitySpans.tool(telemetry, r, use, origin);
    try {
      ToolCallResult ran = runTool(r, use, key, start, callKey(r, id), id.attempt());
      ActivitySpans.toolDone(span, ran, ho1);
      telemetry.metrics().toolCall(known ? use.name() : PlaneMetrics.OTHER, origin, ran.status());
      return ran;
    } finally {
      span.end();
    }
  }

  /**
   * The call's idempotency key, the same on every attempt of this activity: from the turn's
   * workflow, the work order, the round and the call's index. A request recorded before the index
   * was sent falls back to the activity id, which every attempt also shares.
   */
  static String callKey(ToolCallRequest r, ActivityIdentity id) {
    return r.callIndex() != null ? ToolInvocation.key(id.workflowId(), r.woId(), r.round(), r.callIndex())
        : ToolInvocation.key(id.workflowId(), r.woId(), r.round(), 0) + "/activity-" + id.activityId();
  }

  private ToolCallResult runTool(ToolCallRequest r, ToolUse use, String key, long start, String callKey,
      int attempt) {
    LedgerStream ho1 = ledgers.ho1();
    ToolResult result;
    try {
      if (r.approval() != null && !r.approval().granted()) {
        result = notApproved(r.approval());
      } else {
        faults.at(FaultPoints.TOOL_CALL);
        result = tools.execute(new ToolInvocation(r.agentClass(), r.sessionId(), r.woId(), use.name(), use.input(),
            r.allowedTools(), callKey));
      }
    } catch (LedgerUnreachableException e) {
      throw e; // the activity waits for the ledger database (ledger_unavailable), the tool has not failed
    } catch (RuntimeException e) {
      // The executor turns tool failures into results; what is left is ours, and stays in the log.
      LOG.warn("tool call {} of {} failed outside its tool", use.name(), r.woId(), e);
      result = ToolResult.error(ToolErrorCodes.TOOL_FAILURE, use.name() + " failed with an internal error (the"
          + " worker log has the details); try again, or tell the user");
    }
    String content = result.content();
    if (content.length() > MAX_RESULT_CHARS) {
      content = content.substring(0, MAX_RESULT_CHARS) + "\n[... cut: the result had " + content.length()
          + " characters; the limit is " + MAX_RESULT_CHARS + "]";
    }
    ObjectNode meta = Ho1ActivitiesImpl.ho1Meta(r.woId(), r.sessionId()).put("round", r.round()).put("tool_id", use.name())
        .put("origin", tools.originOf(use.name()))
        .put("tool_use_id", use.id()).put("status", result.status()).put("result", content)
        .put("result_chars", result.content().length()).put("attempt", attempt)
        .put("duration_ms", clock.millis() - start);
    meta.set("arguments", use.input());
    meta.put("arguments_summary", ArgumentSummary.of(use.input()));
    if (r.approval() != null) {
      meta.put("approval_id", r.approval().approvalId()).put("approval", r.approval().decision());
    }
    if (result.errorCode() != null) {
      meta.put("error_code", result.errorCode());
    }
    String entryId = ho1.write(LedgerEntry.builder(EventType.TOOL_CALL.wire()).submissionId(r.woId())
        .decision(result.status().toUpperCase(java.util.Locale.ROOT))
        .reason(use.name() + " " + result.status() + (result.errorCode() == null ? "" : ": " + result.errorCode()))
        .metadata(meta).idempotencyKey(key).build());
    return new ToolCallResult(entryId, use.id(), use.name(), result.status(), result.errorCode());
  }

  /**
   * The tool_result of a call a person denied or nobody decided in time (issue 15): the tool did
   * not run, and the model reads the decision, who made it and why, so it can tell the user.
   */
  static ToolResult notApproved(ApprovalResult a) {
    boolean timedOut = ApprovalResult.TIMED_OUT.equals(a.decision());
    String why = a.reason() == null || a.reason().isBlank() ? "" : " (reason: " + a.reason() + ")";
    String text = a.tool() + " was not run: approval " + a.approvalId() + (timedOut
        ? " timed out: nobody decided within the approval timeout, and the policy denies on timeout" + why
        : " was denied by " + a.decidedBy() + why) + ". Tell the user; do not retry the call unless they ask.";
    return ToolResult.refused(timedOut ? ToolErrorCodes.APPROVAL_TIMED_OUT
        : ToolErrorCodes.APPROVAL_DENIED, text);
  }
}
