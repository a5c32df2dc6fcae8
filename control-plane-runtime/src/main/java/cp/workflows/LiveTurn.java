package cp.workflows;

import cp.model.LlmRoundRequest;
import cp.model.ReplyBatch;
import cp.model.TurnEvent;
import cp.model.TurnEventPage;
import cp.model.WoType;
import cp.model.WorkOrder;
import java.util.Optional;

/**
 * A turn's live side (issue 24): its steps as typed events, the rounds that stream their reply,
 * and the Query that reads both. Turns recorded before version {@link #LIVE_TURN} 1 (and turns
 * whose version says not live) keep an empty log and stream nothing; their commands are unchanged.
 *
 * <p>Step events come from the step names the turn already reports for {@code progress}: a new
 * step finishes the one before ({@code step_finished}, or {@code tool_finished} after a tool) and
 * starts ({@code step_started}, {@code tool_requested} for {@code tool NAME}); an approval's wait
 * and decision ({@code waiting for approval …}, {@code tool NAME (decision)}) are
 * {@code approval_pending} and {@code approval_decided} within the tool's step. Only synthesize
 * rounds stream: their text is the reply; classify's is not for the user.
 */
final class LiveTurn implements WorkOrderRunner.RoundStreams {
  /** Version marker of issue 24: synthesize rounds stream their reply to the turn, which keeps events. */
  static final String LIVE_TURN = "live-turn";
  static final int LIVE_TURN_VERSION = 1;
  static final String DONE_STEP = "done";
  private static final String TOOL = "tool ";
  private static final String WAITING = "waiting for approval";

  private final TurnEventLog log = new TurnEventLog();
  private ReplyStreams streams;
  private String openStep;
  private String openTool;
  private String currentWoId;

  /** Turns on events and streaming for the turn workflow {@code workflowId} (version {@link #LIVE_TURN} 1 on). */
  void start(String workflowId) {
    org.slf4j.Logger warn = io.temporal.workflow.Workflow.getLogger(LiveTurn.class);
    streams = new ReplyStreams(log, workflowId, warn::warn);
  }

  boolean live() {
    return streams != null;
  }

  /** The turn's next step, as its {@code progress} names it. */
  void step(String step) {
    if (!live() || step == null || (openStep != null && openStep.startsWith(step))) {
      return; // the work order's runner repeats the turn's own name for its first round
    }
    if (step.startsWith(WAITING)) {
      log.step(TurnEvent.APPROVAL_PENDING, step);
      return;
    }
    if (openTool != null && step.startsWith(TOOL + openTool + " (")) {
      log.step(TurnEvent.APPROVAL_DECIDED, step);
      return;
    }
    if (openTool != null) {
      log.tool(TurnEvent.TOOL_FINISHED, openTool, currentWoId);
      openTool = null;
    } else if (openStep != null) {
      log.step(TurnEvent.STEP_FINISHED, openStep);
      openStep = null;
    }
    if (step.startsWith(TOOL)) {
      openTool = step.substring(TOOL.length());
      log.tool(TurnEvent.TOOL_REQUESTED, openTool, currentWoId);
    } else if (!DONE_STEP.equals(step)) {
      openStep = step;
      log.step(TurnEvent.STEP_STARTED, step);
    }
  }

  /** The quality gate rejected the answer: what was shown of it is withdrawn; the retry's reply follows. */
  void rejected() {
    if (live()) {
      log.retractAll();
    }
  }

  /** The turn's result: the last event. */
  void done(String text, String outcome) {
    if (live()) {
      step(DONE_STEP);
      log.done(text, outcome);
    }
  }

  void accept(ReplyBatch batch) {
    if (live()) {
      streams.accept(batch);
    }
  }

  TurnEventPage events(long fromSeq) {
    return log.page(fromSeq);
  }

  @Override
  public Optional<LlmRoundRequest.StreamTo> open(WorkOrder wo, int round) {
    currentWoId = wo.woId();
    if (!live() || wo.woType() != WoType.SYNTHESIZE) {
      return Optional.empty();
    }
    return Optional.of(streams.open(wo.woId(), round, io.temporal.workflow.Workflow.randomUUID().toString()));
  }

  @Override
  public void close() {
    if (live()) {
      streams.close();
    }
  }
}
