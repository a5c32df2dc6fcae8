package cp.workflows;

import cp.model.TurnInput;
import cp.model.TurnResult;
import cp.model.ApprovalResult;
import cp.model.TurnApprovals;
import cp.model.ReplyBatch;
import cp.model.TurnEvent;
import cp.model.TurnEventPage;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** HO2 for one turn (Kitchener steps 2 and 4): classify, attend, synthesize, gate, retry or escalate. */
@WorkflowInterface
public interface TurnWorkflow {
  @WorkflowMethod
  TurnResult run(TurnInput input);

  /** The step the turn is in (classify, attention, synthesize, tool, quality gate, done), for progress displays. */
  @QueryMethod
  String progress();

  /**
   * Issue 15, sent by the session: an approval this turn waits for was decided. Only a wake-up
   * (issue 20): the turn asks its session for the decision (the session's Query
   * {@code approval_claim}), so a forged signal decides nothing. Turns recorded before
   * {@code approval-by-query} 1 took the decision from the signal.
   */
  @SignalMethod(name = APPROVAL_DECIDED)
  void approvalDecided(ApprovalResult decision);

  /** Internal (issue 20): what this turn waits for and how it recorded each decision, for its session. */
  @QueryMethod(name = APPROVALS)
  TurnApprovals approvals();

  /**
   * Issue 24, internal: a piece of the reply from the LLM-round activity the turn waits on. Taken
   * only from that call (publisher and one-time key checked); anything else is dropped. What a
   * client is told is the final result never comes from here (see {@link TurnEvent#DONE}).
   */
  @SignalMethod(name = REPLY_STREAM)
  void replyStream(ReplyBatch batch);

  /**
   * Issue 24: the turn's events from sequence number {@code fromSeq} on (1 for all), a page at a
   * time; also answered once the turn has closed, for a client that reconnects.
   */
  @QueryMethod(name = EVENTS)
  TurnEventPage events(long fromSeq);

  String APPROVAL_DECIDED = "approval_decided";
  String REPLY_STREAM = "reply_stream";
  String EVENTS = "events";
  String APPROVALS = "approvals";
}
