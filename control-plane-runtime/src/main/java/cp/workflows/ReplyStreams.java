package cp.workflows;

import cp.model.LlmRoundRequest;
import cp.model.ReplyBatch;
import java.util.function.Consumer;

/**
 * The turn's side of a streamed reply (issue 24): which call may stream to it, and what of its
 * text the client is shown.
 *
 * <p>Only the round the turn waits on may publish: {@link #open} names it (publisher = turn
 * workflow id / work order / round) and draws a one-time key that travels in the activity's input;
 * a batch with another publisher or key, or one arriving after the round ended, is dropped. So a
 * signal from outside cannot add text without reading that round's input from history, and even
 * then cannot change the result: the final reply comes from the turn's result
 * ({@link TurnEventLog#done}), never from streamed text.
 *
 * <p>Repeated calls (a worker killed mid-stream, the activity retried): each batch says which
 * attempt sent it and at which character of that attempt's text it starts, so a batch sent twice
 * is recognized, an older attempt's late batch is dropped, and a new attempt's text is compared
 * with what was shown: while it repeats the shown text (the common prefix) nothing is shown again;
 * where it goes beyond, the rest follows; where it differs, a {@code retracted} back to the common
 * prefix comes first. A provider that answers a repeated request the same way (temperature 0, the
 * offline model, a reply answered from the ledger) never causes a retraction.
 */
final class ReplyStreams {
  /**
   * Batches one turn takes at most: with the publisher's flush interval (at least 150 ms apart
   * after the first) a turn's replies stream for ~30 s before text waits for the turn's end;
   * this bounds the turn's history to ~200 signals, whatever a provider does.
   */
  static final int MAX_BATCHES_PER_TURN = 200;

  private final TurnEventLog log;
  private final String workflowId;
  private String publisher;
  private String key;
  private int attempt;
  private final StringBuilder attemptText = new StringBuilder();
  private int accepted;
  private int dropped;

  /** Hears why the first few dropped batches were dropped (the workflow's replay-aware log). */
  private final Consumer<String> warn;

  ReplyStreams(TurnEventLog log, String workflowId, Consumer<String> warn) {
    this.log = log;
    this.workflowId = workflowId;
    this.warn = warn;
  }

  /**
   * The round of {@code woId} the turn is about to wait on may stream: its target. Whatever an
   * earlier round showed of a reply is withdrawn first (it asked for tools, or was rejected).
   * {@code key}: a fresh one-time token (the workflow's deterministic random UUID).
   */
  LlmRoundRequest.StreamTo open(String woId, int round, String key) {
    log.retractAll();
    publisher = workflowId + "/" + woId + "/round-" + round;
    this.key = key;
    attempt = 0;
    attemptText.setLength(0);
    return new LlmRoundRequest.StreamTo(publisher, key);
  }

  /** The round ended: nothing more is taken from it. */
  void close() {
    publisher = null;
    key = null;
  }

  void accept(ReplyBatch b) {
    if (b == null || publisher == null || !publisher.equals(b.publisher()) || !key.equals(b.key())) {
      drop(b, "not from the call the turn waits on");
      return;
    }
    if (accepted >= MAX_BATCHES_PER_TURN) {
      drop(b, "over the turn's " + MAX_BATCHES_PER_TURN + " batches; the reply shows at the turn's end");
      return;
    }
    if (b.attempt() < attempt) {
      drop(b, "from attempt " + b.attempt() + ", after attempt " + attempt + " began");
      return;
    }
    if (b.attempt() > attempt) {
      attempt = b.attempt();
      attemptText.setLength(0);
    }
    if (b.offset() > attemptText.length() || b.offset() < 0) {
      drop(b, "starts at " + b.offset() + " but " + attemptText.length() + " characters came before it");
      return;
    }
    accepted++;
    int overlap = attemptText.length() - b.offset();
    if (overlap >= b.text().length()) {
      return; // sent twice
    }
    attemptText.append(b.text(), overlap, b.text().length());
    String shown = log.shown();
    if (attemptText.length() <= shown.length() && shown.startsWith(attemptText.toString())) {
      return; // a repeated call, still repeating what was shown
    }
    log.showReply(attemptText.toString());
  }

  int dropped() {
    return dropped;
  }

  private void drop(ReplyBatch b, String why) {
    dropped++;
    if (dropped <= 3) {
      warn.accept("reply batch dropped (" + why + "): publisher " + (b == null ? null : b.publisher()) + ", attempt "
          + (b == null ? null : b.attempt()));
    }
  }
}
